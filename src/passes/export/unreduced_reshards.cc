// Making values unreduced in -sdy-insert-explicit-reshards (see the header).
#include "src/passes/export/unreduced_reshards.h"

#include <optional>
#include <utility>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/sdy_ops.h"

namespace shardkit::passes_internal {
namespace {

// How `in` becomes `out` when `out` only adds unreduced axes (out = in +
// r2u + s2u): per dimension, the axes `in` has beyond `out` (a strict
// prefix of them, the last possibly a major part of an axis) become
// unreduced when all of them are among the added axes; any other
// dimension change is a reshard first (to `dims`, in's sharding with those
// dimensions as `out` has them); the added axes not so sharded are
// replicated-to-unreduced.
struct UnreducedPlan {
  std::optional<TensorSharding> reshard;
  AxisRefVector r2u;
  TensorSharding r2u_sharding;
  ListOfAxisRefLists s2u;  // per dimension
  bool has_s2u = false;
  TensorSharding last;  // the sharding the value ends with
};

// The axes `in_axes` has beyond its strict prefix `out_axes`.
AxisRefVector droppedSuffix(const AxisRefVector& in_axes,
                            const AxisRefVector& out_axes, const Mesh& mesh) {
  AxisRefVector suffix;
  const size_t kept = out_axes.size();
  if (kept > 0 && out_axes.back() != in_axes[kept - 1]) {
    // The rest of an axis `out` keeps only a major part of.
    const AxisRef& whole = in_axes[kept - 1];
    int64_t pre = out_axes.back().nextPreSize(mesh);
    suffix.push_back(
        makeAxisRef(whole.name, pre, whole.nextPreSize(mesh) / pre, mesh));
  }
  suffix.insert(suffix.end(), in_axes.begin() + kept, in_axes.end());
  return suffix;
}

std::optional<UnreducedPlan> planUnreduced(const TensorSharding& in,
                                           const TensorSharding& out,
                                           const Mesh& mesh) {
  if (out.unreduced_axes.empty() || in.rank() != out.rank()) {
    return std::nullopt;
  }
  AxisRefVector added =
      axisSetDifference(out.unreduced_axes, in.unreduced_axes, mesh);
  if (added.empty()) return std::nullopt;
  // Unreduced axes only `in` has, or of another kind: not this rewrite.
  if (!axisSetDifference(in.unreduced_axes, out.unreduced_axes, mesh).empty() ||
      (!in.unreduced_axes.empty() && in.unreduced_kind != out.unreduced_kind)) {
    return std::nullopt;
  }
  UnreducedPlan plan;
  std::vector<DimensionSharding> dims = out.dim_shardings;
  AxisRefVector s2u_axes;
  bool need_reshard = false;
  for (int64_t d = 0; d < in.rank(); ++d) {
    const AxisRefVector& in_axes = in.dim_shardings[d].axes;
    const AxisRefVector& out_axes = out.dim_shardings[d].axes;
    AxisRefVector dim_s2u;
    if (in_axes == out_axes) {
      // Nothing to do on this dimension.
    } else if (isAxisListPrefixOf(out_axes, in_axes)) {
      AxisRefVector suffix = droppedSuffix(in_axes, out_axes, mesh);
      if (axisSetDifference(suffix, added, mesh).empty()) {
        s2u_axes.insert(s2u_axes.end(), suffix.begin(), suffix.end());
        dim_s2u = std::move(suffix);
        dims[d] = in.dim_shardings[d];
      } else {
        need_reshard = true;
      }
    } else {
      need_reshard = true;
    }
    plan.s2u.items.emplace_back(std::move(dim_s2u));
  }
  if (need_reshard) {
    TensorSharding reshard = in;
    reshard.dim_shardings = dims;
    plan.reshard = std::move(reshard);
  }
  plan.last = plan.reshard ? *plan.reshard : in;
  plan.r2u = axisSetDifference(added, s2u_axes, mesh);
  if (!plan.r2u.empty()) {
    TensorSharding r2u(in.mesh, dims, out.replicated_axes, in.unreduced_axes);
    r2u.unreduced_axes.insert(r2u.unreduced_axes.end(), plan.r2u.begin(),
                              plan.r2u.end());
    sortAndMergeAxes(r2u.unreduced_axes, mesh);
    r2u.unreduced_kind = out.unreduced_kind;
    plan.r2u_sharding = r2u;
    plan.last = std::move(r2u);
  }
  plan.has_s2u = !s2u_axes.empty();
  if (plan.has_s2u) plan.last = out;
  return plan;
}

// Builds `plan`'s ops on `value`: each right before `before` or, when it is
// null, right after the value it reads. Returns the last.
Value emitPlan(UnreducedPlan& plan, Value value, uint32_t loc, Op before,
               ReshardBuilder& builder) {
  auto place = [&](Op op) {
    if (before) {
      Before{before}(op);
    } else {
      AfterValue{value}(op);
    }
  };
  if (plan.reshard) value = builder.reshard(value, *plan.reshard, loc, place);
  if (!plan.r2u.empty()) {
    value = builder.replicatedToUnreduced(value, std::move(plan.r2u),
                                          plan.r2u_sharding, loc, place);
  }
  if (plan.has_s2u) {
    value = builder.shardedToUnreduced(value, std::move(plan.s2u), plan.last,
                                       loc, place);
  }
  return value;
}

// The mesh of `a` if `b` is on an equal one, else null.
const Mesh* commonMesh(const TensorSharding& a, const TensorSharding& b,
                       const MeshTable& meshes) {
  const Mesh* mesh = meshes.resolve(a);
  const Mesh* other = meshes.resolve(b);
  if (mesh == nullptr || other == nullptr || !(*mesh == *other)) {
    return nullptr;
  }
  return mesh;
}

}  // namespace

bool convertReshardToUnreducedCollectives(Op op, const MeshTable& meshes,
                                          ReshardBuilder& builder) {
  auto reshard = dynCast<sdy::ReshardOp>(op);
  if (!reshard) return false;
  std::optional<TensorSharding> in = getSharding(reshard.input());
  const TensorSharding& out = reshard.sharding();
  if (!in) return false;
  const Mesh* mesh = commonMesh(*in, out, meshes);
  if (mesh == nullptr) return false;
  std::optional<UnreducedPlan> plan = planUnreduced(*in, out, *mesh);
  if (!plan) return false;
  Value result = emitPlan(*plan, reshard.input(), op.location(), op, builder);
  reshard.result().replaceAllUsesWith(result);
  op.erase();
  return true;
}

std::optional<TensorSharding> insertUnreducedCollectives(
    OperandRef use, const TensorSharding& current, const TensorSharding& target,
    bool after_operand, const MeshTable& meshes, ReshardBuilder& builder) {
  const Mesh* mesh = commonMesh(current, target, meshes);
  if (mesh == nullptr) return std::nullopt;
  std::optional<UnreducedPlan> plan = planUnreduced(current, target, *mesh);
  if (!plan) return std::nullopt;
  use.set(emitPlan(*plan, use.get(), use.user.location(),
                   after_operand ? Op() : use.user, builder));
  return plan->last;
}

}  // namespace shardkit::passes_internal
