// -mpmd-populate-unreduced-out-sharding: sdy propagation gives a fragment's
// body arguments their unreduced axes but leaves its out_shardings without
// them; a fragment that returns an `sdy.sharding_constraint` with unreduced
// axes gets those axes on the matching out_sharding.
#include <optional>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"

namespace shardkit::mpmd {
namespace {

// The unreduced sharding a returned value asks for: that of the
// sharding_constraint defining it, when it has unreduced axes.
const TensorSharding* unreducedConstraint(Value returned) {
  Op def = returned.definingOp();
  if (!isa<sdy::ShardingConstraintOp>(def)) return nullptr;
  const TensorSharding* sharding = def.attr("sharding").as<TensorSharding>();
  if (!sharding || sharding->unreduced_axes.empty()) return nullptr;
  return sharding;
}

// The fragment's out_shardings, or for a fragment without them, each
// result's sharding or a fully closed one (what sdy assumes of a value with
// none) on the fragment's mesh name: a placeholder that the constraint's
// mesh replaces below.
std::vector<TensorSharding> currentOutShardings(FragmentOp fragment) {
  if (const TensorShardingPerValue* out = fragment.outShardings()) {
    return out->items;
  }
  std::vector<TensorSharding> result;
  for (Value value : fragment->results()) {
    std::optional<TensorSharding> sharding = getSharding(value);
    result.push_back(sharding.value_or(TensorSharding::fullyClosed(
        MeshOrRef::ref(std::string(fragment.meshName())),
        value.type().rank())));
  }
  return result;
}

void populate(FragmentOp fragment) {
  Op ret = fragment.returnOp();
  if (!ret) return;
  std::vector<TensorSharding> out = currentOutShardings(fragment);
  std::optional<MeshOrRef> constraint_mesh;
  for (unsigned i = 0; i < ret.numOperands() && i < out.size(); ++i) {
    const TensorSharding* constraint = unreducedConstraint(ret.operand(i));
    if (!constraint || out[i].unreduced_axes == constraint->unreduced_axes) {
      continue;
    }
    constraint_mesh = constraint->mesh;
    out[i].mesh = constraint->mesh;
    out[i].unreduced_axes = constraint->unreduced_axes;
    out[i].unreduced_kind = constraint->unreduced_kind;
  }
  if (!constraint_mesh) return;
  // All entries name the sdy mesh of the constraint, not the placeholder.
  for (TensorSharding& sharding : out) sharding.mesh = *constraint_mesh;
  TensorShardingPerValue list;
  list.items = std::move(out);
  fragment->setAttr("out_shardings", Attribute::of(std::move(list)));
}

}  // namespace

absl::Status populateUnreducedOutSharding(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<FragmentOp> fragments;
    auto visit = [&](Op op) {
      if (auto fragment = dynCast<FragmentOp>(op))
        fragments.push_back(fragment);
    };
    Module::walkBlock(func.body(), visit);
    for (FragmentOp fragment : fragments) populate(fragment);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
