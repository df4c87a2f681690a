// Making values unreduced in -sdy-insert-explicit-reshards (see the header).
#include "src/passes/export/unreduced_reshards.h"

#include <utility>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/sdy_ops.h"

namespace shardkit::passes_internal {
namespace {

// For each dimension, the suffix of `in`'s axes that `out` drops (`out` must
// be a prefix of `in`, its last axis possibly a prefix of the corresponding
// axis), or nullopt if some dimension is not so.
std::optional<ListOfAxisRefLists> droppedSuffixes(const TensorSharding& in,
                                                  const TensorSharding& out,
                                                  const Mesh& mesh) {
  if (in.rank() != out.rank()) return std::nullopt;
  ListOfAxisRefLists dropped;
  for (int64_t d = 0; d < in.rank(); ++d) {
    const AxisRefVector& in_axes = in.dim_shardings[d].axes;
    const AxisRefVector& out_axes = out.dim_shardings[d].axes;
    if (!isAxisListPrefixOf(out_axes, in_axes)) return std::nullopt;
    AxisRefVector suffix;
    size_t kept = out_axes.size();
    if (kept > 0 && out_axes.back() != in_axes[kept - 1]) {
      // The rest of an axis the target keeps only a major part of.
      const AxisRef& whole = in_axes[kept - 1];
      int64_t pre = out_axes.back().nextPreSize(mesh);
      suffix.push_back(
          makeAxisRef(whole.name, pre, whole.nextPreSize(mesh) / pre, mesh));
    }
    suffix.insert(suffix.end(), in_axes.begin() + kept, in_axes.end());
    dropped.items.emplace_back(std::move(suffix));
  }
  return dropped;
}

bool sameDimAxes(const TensorSharding& a, const TensorSharding& b) {
  if (a.rank() != b.rank()) return false;
  for (int64_t d = 0; d < a.rank(); ++d) {
    if (a.dim_shardings[d].axes != b.dim_shardings[d].axes) return false;
  }
  return true;
}

}  // namespace

bool convertReshardToUnreducedCollectives(Op op, const MeshTable& meshes,
                                          ReshardBuilder& builder) {
  auto reshard = dynCast<sdy::ReshardOp>(op);
  if (!reshard) return false;
  std::optional<TensorSharding> in = getSharding(reshard.input());
  const TensorSharding& out = reshard.sharding();
  if (!in || out.unreduced_axes.empty()) return false;
  const Mesh* mesh = meshes.resolve(*in);
  const Mesh* out_mesh = meshes.resolve(out);
  if (mesh == nullptr || out_mesh == nullptr || !(*mesh == *out_mesh)) {
    return false;
  }
  // out = in + replicated-to-unreduced + sharded-to-unreduced.
  AxisRefVector added =
      axisSetDifference(out.unreduced_axes, in->unreduced_axes, *mesh);
  if (added.empty()) return false;
  if (!axisSetDifference(in->unreduced_axes, out.unreduced_axes, *mesh)
           .empty() ||
      (!in->unreduced_axes.empty() &&
       in->unreduced_kind != out.unreduced_kind)) {
    return false;
  }
  std::optional<ListOfAxisRefLists> dropped = droppedSuffixes(*in, out, *mesh);
  if (!dropped) return false;
  AxisRefVector sharded;
  for (const AxisRefList& list : dropped->items) {
    sharded.insert(sharded.end(), list.begin(), list.end());
  }
  AxisRefVector replicated = axisSetDifference(added, sharded, *mesh);
  Value result = reshard.input();
  uint32_t loc = op.location();
  if (!replicated.empty()) {
    TensorSharding partial = *in;
    partial.replicated_axes = out.replicated_axes;
    partial.unreduced_axes.insert(partial.unreduced_axes.end(),
                                  replicated.begin(), replicated.end());
    sortAndMergeAxes(partial.unreduced_axes, *mesh);
    partial.unreduced_kind = out.unreduced_kind;
    result = builder.replicatedToUnreduced(result, std::move(replicated),
                                           partial, loc, Before{op});
  }
  if (!sharded.empty()) {
    result = builder.shardedToUnreduced(result, std::move(*dropped), out, loc,
                                        Before{op});
  }
  reshard.result().replaceAllUsesWith(result);
  op.erase();
  return true;
}

std::optional<TensorSharding> insertUnreducedCollectives(
    OperandRef use, const TensorSharding& current, const TensorSharding& target,
    bool after_operand, const MeshTable& meshes, ReshardBuilder& builder) {
  const Mesh* mesh = meshes.resolve(current);
  const Mesh* target_mesh = meshes.resolve(target);
  if (mesh == nullptr || target_mesh == nullptr ||
      !(mesh->axes == target_mesh->axes)) {
    return std::nullopt;
  }
  AxisRefVector missing =
      axisSetDifference(target.unreduced_axes, current.unreduced_axes, *mesh);
  if (missing.empty()) return std::nullopt;
  Value value = use.get();
  uint32_t loc = use.user.location();
  auto place = [&](Op op) {
    if (after_operand) {
      AfterValue{value}(op);
    } else {
      Before{use.user}(op);
    }
  };
  if (!sameDimAxes(current, target) || !(current.mesh == target.mesh)) {
    TensorSharding dims = target;
    dims.unreduced_axes = current.unreduced_axes;
    dims.unreduced_kind = current.unreduced_kind;
    value = builder.reshard(value, dims, loc, place);
  }
  value = builder.replicatedToUnreduced(value, std::move(missing), target, loc,
                                        place);
  use.set(value);
  return target;
}

}  // namespace shardkit::passes_internal
