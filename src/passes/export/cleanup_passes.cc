// The small export passes that each remove one piece of propagation
// scaffolding: sharding groups, sharding constraints (which become reshards),
// op sharding rules, the copies the constant splitter made, and (once a
// program is partitioned) every sharding and mesh.
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/passes/export_passes.h"

namespace shardkit {
namespace {

bool isConstantLike(Op op) {
  return isa<sdy::ConstantOp, stablehlo::ConstantOp>(op);
}

bool isScalarBroadcast(Op op) {
  return isa<stablehlo::BroadcastInDimOp>(op) && op.numOperands() == 1 &&
         op.operand(0).type().isRankedTensor() &&
         op.operand(0).type().rank() == 0;
}

// Ops that may be merged share a bucket; within one, the attributes decide.
// A constant's type follows from its value, but a bucket by type keeps the
// attribute comparisons few.
using MergeKey = std::tuple<uint32_t /*parent block*/, OpName, Type,
                            uint32_t /*operand value or kNoId*/>;

bool sameAttributes(Op a, Op b) {
  return a.inherentAttrs() == b.inherentAttrs() &&
         a.discardableAttrs() == b.discardableAttrs();
}

}  // namespace

absl::Status removeShardingGroups(Module& module) {
  if (!module.mayHaveOpsNamed(sdy::ShardingGroupOp::opName())) {
    return absl::OkStatus();
  }
  module.walk([](Op op) {
    if (isa<sdy::ShardingGroupOp>(op)) op.erase();
  });
  return absl::OkStatus();
}

absl::Status shardingConstraintsToReshards(Module& module) {
  if (!module.mayHaveOpsNamed(sdy::ShardingConstraintOp::opName())) {
    return absl::OkStatus();
  }
  module.walk([&module](Op op) {
    auto constraint = dynCast<sdy::ShardingConstraintOp>(op);
    if (!constraint) return;
    OperationState state(sdy::ReshardOp::opName());
    state.operands = {constraint.input()};
    state.result_types = {constraint.result().type()};
    state.addAttr("sharding", op.attr("sharding"));
    state.discardable_attrs = op.discardableAttrs();
    state.location = op.location();
    module.replaceOp(op, state);
  });
  return absl::OkStatus();
}

absl::Status dropShardingAndMesh(Module& module) {
  module.walk([](Op op) {
    op.removeAttr(kShardingAttr);
    if (auto func = dynCast<FuncOp>(op)) {
      func.argAttrList().removeEntryEverywhere(kShardingAttr);
      func.resultAttrList().removeEntryEverywhere(kShardingAttr);
    }
  });
  // Every mesh goes, as in the reference: an op that still names one (an
  // sdy op the program kept) fails the verification after the pass.
  for (Op op : module.body().ops()) {
    if (isa<sdy::MeshOp>(op)) op.erase();
  }
  return absl::OkStatus();
}

absl::Status dropShardingRules(Module& module) {
  removeShardingRules(module);
  return absl::OkStatus();
}

absl::Status mergeConstants(Module& module, ConstantMergeMode mode) {
  absl::flat_hash_map<MergeKey, std::vector<Op>> seen;
  module.walk([&](Op op) {
    bool broadcast =
        mode == ConstantMergeMode::kConstantsOrScalars && isScalarBroadcast(op);
    if (!broadcast && !isConstantLike(op)) return;
    if (op.numResults() != 1) return;
    MergeKey key{op.parentBlock().id(), op.opName(), op.result(0).type(),
                 broadcast ? op.operand(0).id() : kNoId};
    std::vector<Op>& bucket = seen[key];
    for (Op kept : bucket) {
      if (sameAttributes(kept, op)) {
        op.result(0).replaceAllUsesWith(kept.result(0));
        op.erase();
        return;
      }
    }
    bucket.push_back(op);
  });
  return absl::OkStatus();
}

}  // namespace shardkit
