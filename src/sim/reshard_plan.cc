// planReshard: the steps around the collective inserter (unreduced axes,
// sub-axes that cannot coexist, meshes) and the checked fallback.
#include "shardkit/sim/reshard_plan.h"

#include <optional>
#include <utility>

#include "axis_pieces.h"
#include "collective_inserter.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/verify.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

using sim_internal::appendOrMerge;
using sim_internal::canCoexist;
using sim_internal::cutAtBoundaries;
using sim_internal::subtractAxes;

using AxisList = AxisRefVector;

std::vector<AxisList> dimAxes(const TensorSharding& sharding) {
  std::vector<AxisList> axes;
  axes.reserve(sharding.dim_shardings.size());
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    axes.push_back(dim.axes);
  }
  return axes;
}

// Builds the plan step by step, tracking the current sharding.
class PlanBuilder {
 public:
  PlanBuilder(const TensorSharding& source, const Mesh& mesh)
      : mesh_(&mesh), current_(source) {
    current_.replicated_axes.clear();
    for (DimensionSharding& dim : current_.dim_shardings) {
      dim = DimensionSharding(std::move(dim.axes), /*is_closed=*/true);
    }
  }

  const TensorSharding& current() const { return current_; }
  std::vector<Collective>& steps() { return steps_; }

  // Appends `collective` with its inferred out sharding.
  absl::Status add(Collective collective, const Mesh& target_mesh) {
    SK_ASSIGN_OR_RETURN(
        collective.out_sharding,
        inferOutSharding(collective, current_, *mesh_, target_mesh));
    current_ = collective.out_sharding;
    steps_.push_back(std::move(collective));
    return absl::OkStatus();
  }

  // Checks and takes over collectives planned elsewhere.
  absl::Status addChecked(std::vector<Collective> collectives,
                          const Mesh& target_mesh) {
    for (Collective& collective : collectives) {
      SK_RETURN_IF_ERROR(
          verifyCollective(collective, current_, *mesh_, target_mesh));
      current_ = collective.out_sharding;
      steps_.push_back(std::move(collective));
    }
    return absl::OkStatus();
  }

 private:
  const Mesh* mesh_;
  TensorSharding current_;
  std::vector<Collective> steps_;
};

Collective withAxes(CollectiveKind kind, AxisList axes, const Mesh& mesh) {
  sortAndMergeAxes(axes, mesh);
  Collective collective;
  collective.kind = kind;
  collective.axes = AxisRefList(std::move(axes));
  return collective;
}

Collective withAxesPerDim(CollectiveKind kind, std::vector<AxisList> lists) {
  Collective collective;
  collective.kind = kind;
  for (AxisList& axes : lists) {
    collective.axes_per_dim.items.emplace_back(std::move(axes));
  }
  return collective;
}

bool anyAxes(const std::vector<AxisList>& lists) {
  for (const AxisList& axes : lists) {
    if (!axes.empty()) return true;
  }
  return false;
}

// For each dimension, the longest suffix of its axes (cut at the boundaries
// of `wanted`) that lies inside `wanted`, merged.
std::vector<AxisList> suffixesWithin(const TensorSharding& sharding,
                                     const AxisList& wanted, const Mesh& mesh) {
  std::vector<AxisList> result;
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    AxisList pieces = dim.axes;
    cutAtBoundaries(pieces, wanted, mesh);
    size_t start = pieces.size();
    while (start > 0) {
      bool inside = false;
      for (const AxisRef& axis : wanted) {
        inside = inside || contains(axis, pieces[start - 1]);
      }
      if (!inside) break;
      --start;
    }
    AxisList suffix;
    for (size_t k = start; k < pieces.size(); ++k) {
      appendOrMerge(suffix, pieces[k], mesh);
    }
    result.push_back(std::move(suffix));
  }
  return result;
}

// For each dimension, the suffix of its axes from the first one that
// overlaps a target axis it cannot coexist with.
std::vector<AxisList> conflictingSuffixes(const TensorSharding& current,
                                          const TensorSharding& target,
                                          const Mesh& mesh) {
  AxisList target_axes;
  target.forEachShardingAxis(
      [&](const AxisRef& a) { target_axes.push_back(a); });
  std::vector<AxisList> result;
  for (const DimensionSharding& dim : current.dim_shardings) {
    size_t first = dim.axes.size();
    for (size_t k = 0; k < dim.axes.size() && first == dim.axes.size(); ++k) {
      for (const AxisRef& other : target_axes) {
        if (overlaps(dim.axes[k], other) &&
            !canCoexist(dim.axes[k], other, mesh)) {
          first = k;
          break;
        }
      }
    }
    result.emplace_back(dim.axes.begin() + first, dim.axes.end());
  }
  return result;
}

// Gathers every dimension, permutes devices if needed, slices the target's
// axes.
absl::Status planGatherAll(PlanBuilder& plan, const TensorSharding& target,
                           const Mesh& target_mesh, bool mesh_change) {
  std::vector<AxisList> current = dimAxes(plan.current());
  if (anyAxes(current)) {
    SK_RETURN_IF_ERROR(plan.add(
        withAxesPerDim(CollectiveKind::kAllGather, current), target_mesh));
  }
  if (mesh_change) {
    Collective permute;
    permute.kind = CollectiveKind::kCollectivePermute;
    permute.out_sharding = plan.current();
    permute.out_sharding.mesh = target.mesh;
    SK_RETURN_IF_ERROR(plan.add(std::move(permute), target_mesh));
  }
  std::vector<AxisList> wanted = dimAxes(target);
  if (anyAxes(wanted)) {
    SK_RETURN_IF_ERROR(plan.add(
        withAxesPerDim(CollectiveKind::kAllSlice, wanted), target_mesh));
  }
  return absl::OkStatus();
}

// Steps 3 and 4 (see the header): from the current dimension axes to the
// target's, with unreduced axes fixed.
absl::Status planDimensions(PlanBuilder& plan, const TensorSharding& target,
                            const Mesh& mesh, const Mesh& target_mesh,
                            bool mesh_change, absl::Span<const int64_t> shape,
                            bool& gathered_fully) {
  std::vector<AxisList> conflicts =
      conflictingSuffixes(plan.current(), target, mesh);
  if (anyAxes(conflicts)) {
    SK_RETURN_IF_ERROR(plan.add(
        withAxesPerDim(CollectiveKind::kAllGather, conflicts), target_mesh));
  }
  sim_internal::InserterInput input;
  input.mesh = &mesh;
  input.current_mesh = plan.current().mesh;
  input.target_mesh = mesh_change ? target.mesh : plan.current().mesh;
  input.unreduced_axes = plan.current().unreduced_axes;
  input.unreduced_kind = plan.current().unreduced_kind;
  input.current_dims = dimAxes(plan.current());
  input.target_dims = dimAxes(target);
  input.shape = shape;
  std::vector<Collective> inserted;
  if (sim_internal::insertCollectives(input, inserted)) {
    PlanBuilder attempt = plan;
    if (attempt.addChecked(std::move(inserted), target_mesh).ok() &&
        dimAxes(attempt.current()) == input.target_dims) {
      plan = std::move(attempt);
      return absl::OkStatus();
    }
  }
  gathered_fully = true;
  return planGatherAll(plan, target, target_mesh, mesh_change);
}

}  // namespace

bool isReplicatedEverywhere(const TensorSharding& sharding) {
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    if (!dim.axes.empty()) return false;
  }
  return sharding.unreduced_axes.empty();
}

absl::StatusOr<ReshardPlan> planReshard(const TensorSharding& source,
                                        const Mesh& source_mesh,
                                        const TensorSharding& target_in,
                                        const Mesh& target_mesh_in,
                                        absl::Span<const int64_t> shape) {
  if (source.rank() != target_in.rank()) {
    return absl::UnimplementedError(
        toAbsl(strCat("incompatible shardings: rank ", source.rank(), " vs ",
                      target_in.rank())));
  }
  if (static_cast<int64_t>(shape.size()) != source.rank()) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("shape of rank ", shape.size(), " for shardings of rank ",
                      source.rank())));
  }
  SK_RETURN_IF_ERROR(verifyTensorShardingWithMesh(source, source_mesh, shape));
  SK_RETURN_IF_ERROR(
      verifyTensorShardingWithMesh(target_in, target_mesh_in, shape));
  SK_RETURN_IF_ERROR(verifyUnreducedTransition(source, target_in));
  ReshardPlan result;
  TensorSharding target = target_in;
  const Mesh* target_mesh = &target_mesh_in;
  if (isReplicatedEverywhere(target)) {
    if (isReplicatedEverywhere(source)) return result;
    target = TensorSharding::fullyClosed(source.mesh, source.rank());
    target_mesh = &source_mesh;
  }
  const bool same_ref = source.mesh == target.mesh;
  if (!same_ref && source_mesh.axes != target_mesh->axes) {
    return absl::UnimplementedError("incompatible meshes");
  }
  const bool mesh_change =
      !same_ref && !source_mesh.sameDeviceOrder(*target_mesh);
  const Mesh& mesh = source_mesh;

  PlanBuilder plan(source, mesh);
  // 1. Reduce the unreduced axes the target does not keep (all of them if
  // the target's reduction differs, e.g. a sub-axis of a max-unreduced axis
  // that the target makes a sum).
  const bool same_kind = source.unreduced_kind == target.unreduced_kind ||
                         source.unreduced_axes.empty() ||
                         target.unreduced_axes.empty();
  AxisList dropped =
      subtractAxes(source.unreduced_axes,
                   same_kind ? target.unreduced_axes : AxisList(), mesh);
  if (!dropped.empty()) {
    Collective reduce =
        withAxes(CollectiveKind::kAllReduce, std::move(dropped), mesh);
    reduce.reduction = source.unreduced_kind;
    SK_RETURN_IF_ERROR(plan.add(std::move(reduce), *target_mesh));
  }
  // 2. New unreduced axes that end a dimension become unreduced in place.
  AxisList added =
      subtractAxes(target.unreduced_axes, plan.current().unreduced_axes, mesh);
  std::vector<AxisList> in_place = suffixesWithin(plan.current(), added, mesh);
  if (anyAxes(in_place)) {
    SK_RETURN_IF_ERROR(
        plan.add(withAxesPerDim(CollectiveKind::kShardedToUnreduced, in_place),
                 *target_mesh));
  }
  // 3 and 4. The dimension axes (and the device order).
  SK_RETURN_IF_ERROR(planDimensions(plan, target, mesh, *target_mesh,
                                    mesh_change, shape, result.gathered_fully));
  // 5. The remaining new unreduced axes are replicated by now.
  AxisList rest =
      subtractAxes(target.unreduced_axes, plan.current().unreduced_axes, mesh);
  if (!rest.empty()) {
    SK_RETURN_IF_ERROR(plan.add(
        withAxes(CollectiveKind::kReplicatedToUnreduced, std::move(rest), mesh),
        *target_mesh));
  }
  result.collectives = std::move(plan.steps());
  return result;
}

}  // namespace shardkit
