// -sdy-reshard-to-collectives over the graph IR: the planning is the sim
// layer's; this file finds the reshards, reads their shardings and shapes,
// and builds the collective ops.
#include "shardkit/passes/reshard_to_collectives.h"

#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/pass.h"
#include "shardkit/sim/reshard_plan.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/export/collective_ops.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

Value bypassBarriers(Value value) {
  while (Op def = value.definingOp()) {
    if (!isa<sdy::PropagationBarrierOp>(def) || def.numOperands() != 1) {
      break;
    }
    value = def.operand(0);
  }
  return value;
}

absl::Status lowerReshard(Module& module, const MeshTable& meshes, Op reshard,
                          const ReshardToCollectivesOptions& options) {
  const TensorSharding* target = reshard.attr("sharding").as<TensorSharding>();
  if (!target || reshard.numOperands() != 1 || reshard.numResults() != 1) {
    return opError(reshard, "expected one operand, one result and a sharding");
  }
  Value input = reshard.operand(0);
  Value bypassed = bypassBarriers(input);
  std::optional<TensorSharding> found = getSharding(bypassed);
  if (options.keep_redundant_reshards && found &&
      sameDistribution(*found, *target)) {
    return absl::OkStatus();
  }
  TensorSharding source =
      found ? *found : TensorSharding::fullyOpen(target->mesh, target->rank());
  const Mesh* source_mesh = meshes.resolve(source);
  const Mesh* target_mesh = meshes.resolve(*target);
  Type type = reshard.result(0).type();
  if (!source_mesh || !target_mesh || !type.isRankedTensor()) {
    return absl::OkStatus();  // Nothing to plan with; the verifier reports.
  }
  // Moving to or from a single device is no sdy collective: the reshard
  // stays for -sdy-resolve-single-device-sharding.
  if (source_mesh->isMaximal() || target_mesh->isMaximal()) {
    return absl::OkStatus();
  }
  absl::StatusOr<ReshardPlan> plan =
      planReshard(source, *source_mesh, *target, *target_mesh, type.shape());
  if (!plan.ok()) {
    return opError(reshard, strCat("cannot be lowered to collectives: ",
                                   fromAbsl(plan.status().message())));
  }
  Value result = bypassed;
  if (plan->collectives.empty() && isReplicatedEverywhere(*target)) {
    result = input;
  }
  for (const Collective& c : plan->collectives) {
    result = passes_internal::buildCollective(module, c, result, type,
                                              reshard.location(), reshard);
  }
  reshard.result(0).replaceAllUsesWith(result);
  reshard.erase();
  return absl::OkStatus();
}

}  // namespace

absl::Status reshardToCollectives(Module& module,
                                  const ReshardToCollectivesOptions& options) {
  MeshTable meshes = module.meshTable();
  std::vector<Op> reshards;
  module.walk([&](Op op) {
    if (isa<sdy::ReshardOp>(op)) reshards.push_back(op);
  });
  for (Op reshard : reshards) {
    SK_RETURN_IF_ERROR(lowerReshard(module, meshes, reshard, options));
  }
  return absl::OkStatus();
}

void registerReshardToCollectivesPass() {
  registerPass(boolOptionPass(
      "sdy-reshard-to-collectives",
      "Replaces every sdy.reshard by the collectives that perform it.",
      {"keep-redundant-reshards",
       "keep reshards whose operand already has the same sharding "
       "(default false)"},
      &ReshardToCollectivesOptions::keep_redundant_reshards,
      reshardToCollectives));
}

}  // namespace shardkit
