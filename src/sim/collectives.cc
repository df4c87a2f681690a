// Out-sharding inference and verification of the sdy collectives over plain
// values. The checks of the parameters themselves are core's verifier
// (verify.h); this file computes what each collective produces and adds the
// rules on unreduced axes.
#include "shardkit/sim/collectives.h"

#include <optional>
#include <utility>
#include <vector>

#include "axis_pieces.h"
#include "shardkit/core/verify.h"
#include "shardkit/support/enum_table.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

using sim_internal::subtractAxes;

absl::Status invalid(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// `operand` with closed dimensions, no priorities and no replicated axes.
TensorSharding closedLike(const TensorSharding& operand) {
  TensorSharding result;
  result.mesh = operand.mesh;
  result.dim_shardings.reserve(operand.dim_shardings.size());
  for (const DimensionSharding& dim : operand.dim_shardings) {
    result.dim_shardings.emplace_back(dim.axes, /*is_closed=*/true);
  }
  result.unreduced_axes = operand.unreduced_axes;
  result.unreduced_kind = operand.unreduced_kind;
  return result;
}

// Sets the unreduced axes of `sharding` (sorted and merged), resetting the
// kind to sum when none remain.
void setUnreduced(TensorSharding& sharding, AxisRefVector axes,
                  ReductionKind kind, const Mesh& mesh) {
  sortAndMergeAxes(axes, mesh);
  sharding.unreduced_kind = axes.empty() ? ReductionKind::kSum : kind;
  sharding.unreduced_axes = std::move(axes);
}

// The result must be a valid sharding on its own (e.g. no slicing axis that
// is also unreduced). The shape is unknown here, so every size is dynamic.
absl::Status checkValid(const TensorSharding& result, const Mesh& mesh) {
  std::vector<int64_t> shape(result.dim_shardings.size(), kDynamicSize);
  return verifyTensorShardingWithMesh(result, mesh, shape);
}

// Removes `gathered` from the end of `axes` the way all_gather does; false if
// it is not a suffix.
bool gatherSuffix(AxisRefVector& axes, absl::Span<const AxisRef> gathered,
                  const Mesh& mesh) {
  for (auto it = gathered.rbegin(); it != gathered.rend(); ++it) {
    if (axes.empty() || !isSuffixOf(*it, axes.back(), mesh)) return false;
    AxisRef last = std::move(axes.back());
    axes.pop_back();
    if (std::optional<AxisRef> rest = prefixWithoutOverlap(last, *it)) {
      axes.push_back(std::move(*rest));
    }
  }
  return true;
}

// Applies per-dimension axes to `operand`'s dimensions (gathering or
// appending them) and checks the result with core's verifier, which reports
// invalid axes, rank mismatches and non-suffixes in the reference's order.
absl::StatusOr<TensorSharding> applyAxesPerDim(AxesPerDimCollective kind,
                                               const TensorSharding& operand,
                                               const ListOfAxisRefLists& axes,
                                               const Mesh& mesh) {
  TensorSharding result = closedLike(operand);
  if (static_cast<int64_t>(axes.size()) != operand.rank()) {
    result.dim_shardings.assign(axes.size(), DimensionSharding());
  } else {
    for (size_t dim = 0; dim < axes.size(); ++dim) {
      AxisRefVector& dim_axes = result.dim_shardings[dim].axes;
      if (kind == AxesPerDimCollective::kGather) {
        gatherSuffix(dim_axes, axes[dim], mesh);
      } else {
        appendAxes(dim_axes, axes[dim], mesh);
      }
    }
  }
  SK_RETURN_IF_ERROR(
      verifyAxesPerDimCollective(kind, axes, operand, result, mesh));
  return result;
}

AxisRefVector allAxes(const ListOfAxisRefLists& lists) {
  AxisRefVector axes;
  for (const AxisRefList& list : lists) {
    axes.insert(axes.end(), list.begin(), list.end());
  }
  return axes;
}

// A reduction over unreduced axes must be theirs.
absl::Status checkReduction(ReductionKind reduction,
                            const TensorSharding& operand,
                            absl::Span<const AxisRef> axes) {
  for (const AxisRef& axis : axes) {
    if (overlapsAny(operand.unreduced_axes, axis) &&
        reduction != operand.unreduced_kind) {
      return invalid(strCat(
          "reduction ", toString(reduction), " doesn't match the operand's ",
          toString(operand.unreduced_kind), " unreduced axes"));
    }
  }
  return absl::OkStatus();
}

// The kind of unreduced axes added to `operand`'s: its own kind when it has
// unreduced axes, otherwise sum.
ReductionKind addedKind(const TensorSharding& operand) {
  return operand.unreduced_axes.empty() ? ReductionKind::kSum
                                        : operand.unreduced_kind;
}

// What each kind is: its mnemonic, parameters and whether it reduces.
struct KindInfo {
  std::string_view mnemonic;
  CollectiveParams params;
  bool reduces;
};
using P = CollectiveParams;
constexpr EnumTable<CollectiveKind, KindInfo> kKinds = {{
    {CollectiveKind::kAllGather, {"all_gather", P::kAxesPerDim, false}},
    {CollectiveKind::kAllSlice, {"all_slice", P::kAxesPerDim, false}},
    {CollectiveKind::kAllToAll, {"all_to_all", P::kAllToAll, false}},
    {CollectiveKind::kCollectivePermute,
     {"collective_permute", P::kNone, false}},
    {CollectiveKind::kAllReduce, {"all_reduce", P::kAxes, true}},
    {CollectiveKind::kReduceScatter, {"reduce_scatter", P::kAxesPerDim, true}},
    {CollectiveKind::kShardedToUnreduced,
     {"sharded_to_unreduced", P::kAxesPerDim, false}},
    {CollectiveKind::kReplicatedToUnreduced,
     {"replicated_to_unreduced", P::kAxes, false}},
}};

}  // namespace

std::string_view mnemonic(CollectiveKind kind) { return kKinds[kind].mnemonic; }
CollectiveParams paramsOf(CollectiveKind kind) { return kKinds[kind].params; }
bool reduces(CollectiveKind kind) { return kKinds[kind].reduces; }

std::string toString(const Collective& c) {
  std::string text(mnemonic(c.kind));
  if (reduces(c.kind) && c.reduction != ReductionKind::kSum) {
    strAppend(text, " ", toString(c.reduction));
  }
  switch (paramsOf(c.kind)) {
    case CollectiveParams::kAxesPerDim:
      strAppend(text, " ", toString(c.axes_per_dim));
      break;
    case CollectiveParams::kAxes:
      strAppend(text, " ", toString(c.axes));
      break;
    case CollectiveParams::kAllToAll:
      strAppend(text, " ", toString(c.params));
      break;
    case CollectiveParams::kNone:
      break;
  }
  strAppend(text, " out_sharding=", toString(c.out_sharding));
  return text;
}

absl::StatusOr<TensorSharding> inferAllGather(
    const TensorSharding& operand, const ListOfAxisRefLists& gathering_axes,
    const Mesh& mesh) {
  return applyAxesPerDim(AxesPerDimCollective::kGather, operand, gathering_axes,
                         mesh);
}

absl::StatusOr<TensorSharding> inferAllSlice(
    const TensorSharding& operand, const ListOfAxisRefLists& slicing_axes,
    const Mesh& mesh) {
  SK_ASSIGN_OR_RETURN(TensorSharding result,
                      applyAxesPerDim(AxesPerDimCollective::kSlice, operand,
                                      slicing_axes, mesh));
  SK_RETURN_IF_ERROR(checkValid(result, mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferAllToAll(const TensorSharding& operand,
                                             const AllToAllParamList& params,
                                             const Mesh& mesh) {
  TensorSharding result = closedLike(operand);
  for (const AllToAllParam& param : params) {
    if (param.src_dim < 0 || param.src_dim >= operand.rank() ||
        param.tgt_dim < 0 || param.tgt_dim >= operand.rank()) {
      continue;  // verifyAllToAll reports it.
    }
    gatherSuffix(result.dim_shardings[param.src_dim].axes, param.axes, mesh);
    appendAxes(result.dim_shardings[param.tgt_dim].axes, param.axes, mesh);
  }
  SK_RETURN_IF_ERROR(verifyAllToAll(params, operand, result, mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferCollectivePermute(
    const TensorSharding& operand, const Mesh& operand_mesh,
    const TensorSharding& target, const Mesh& target_mesh) {
  TensorSharding result = closedLike(target);
  result.unreduced_axes = operand.unreduced_axes;
  result.unreduced_kind = operand.unreduced_kind;
  SK_RETURN_IF_ERROR(
      verifyCollectiveShardings(operand, operand_mesh, result, target_mesh,
                                /*allow_different_meshes=*/true));
  SK_RETURN_IF_ERROR(
      verifyCollectivePermute(operand, operand_mesh, result, target_mesh));
  SK_RETURN_IF_ERROR(checkValid(result, target_mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferAllReduce(const TensorSharding& operand,
                                              const AxisRefList& reduction_axes,
                                              ReductionKind reduction,
                                              const Mesh& mesh) {
  SK_RETURN_IF_ERROR(checkReduction(reduction, operand, reduction_axes.items));
  TensorSharding result = closedLike(operand);
  setUnreduced(result,
               subtractAxes(operand.unreduced_axes, reduction_axes.items, mesh),
               operand.unreduced_kind, mesh);
  SK_RETURN_IF_ERROR(
      verifyAllReduce(reduction_axes.items, reduction, operand, result, mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferReduceScatter(
    const TensorSharding& operand, const ListOfAxisRefLists& scatter_axes,
    ReductionKind reduction, const Mesh& mesh) {
  SK_RETURN_IF_ERROR(checkReduction(reduction, operand, allAxes(scatter_axes)));
  SK_ASSIGN_OR_RETURN(TensorSharding result,
                      applyAxesPerDim(AxesPerDimCollective::kSlice, operand,
                                      scatter_axes, mesh));
  setUnreduced(
      result, subtractAxes(operand.unreduced_axes, allAxes(scatter_axes), mesh),
      operand.unreduced_kind, mesh);
  SK_RETURN_IF_ERROR(checkValid(result, mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferShardedToUnreduced(
    const TensorSharding& operand, const ListOfAxisRefLists& axes,
    const Mesh& mesh) {
  SK_ASSIGN_OR_RETURN(
      TensorSharding result,
      applyAxesPerDim(AxesPerDimCollective::kGather, operand, axes, mesh));
  AxisRefVector unreduced = operand.unreduced_axes;
  AxisRefVector added = allAxes(axes);
  unreduced.insert(unreduced.end(), added.begin(), added.end());
  setUnreduced(result, std::move(unreduced), addedKind(operand), mesh);
  SK_RETURN_IF_ERROR(checkValid(result, mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferReplicatedToUnreduced(
    const TensorSharding& operand, const AxisRefList& axes, const Mesh& mesh) {
  SK_RETURN_IF_ERROR(verifyAxisRefList(axes.items, mesh));
  for (const AxisRef& axis : axes.items) {
    bool sharded = false;
    operand.forEachShardingAxis(
        [&](const AxisRef& a) { sharded = sharded || overlaps(a, axis); });
    if (sharded) {
      return invalid(strCat("axis ", toString(axis),
                            " overlaps with the operand's dimension sharding"));
    }
    if (overlapsAny(operand.unreduced_axes, axis)) {
      return invalid(strCat("axis ", toString(axis),
                            " overlaps with the operand's unreduced axes"));
    }
  }
  TensorSharding result = closedLike(operand);
  AxisRefVector unreduced = operand.unreduced_axes;
  unreduced.insert(unreduced.end(), axes.items.begin(), axes.items.end());
  setUnreduced(result, std::move(unreduced), addedKind(operand), mesh);
  SK_RETURN_IF_ERROR(checkValid(result, mesh));
  return result;
}

absl::StatusOr<TensorSharding> inferOutSharding(const Collective& c,
                                                const TensorSharding& operand,
                                                const Mesh& mesh,
                                                const Mesh& target_mesh) {
  switch (c.kind) {
    case CollectiveKind::kAllGather:
      return inferAllGather(operand, c.axes_per_dim, mesh);
    case CollectiveKind::kAllSlice:
      return inferAllSlice(operand, c.axes_per_dim, mesh);
    case CollectiveKind::kAllToAll:
      return inferAllToAll(operand, c.params, mesh);
    case CollectiveKind::kCollectivePermute:
      return inferCollectivePermute(operand, mesh, c.out_sharding, target_mesh);
    case CollectiveKind::kAllReduce:
      return inferAllReduce(operand, c.axes, c.reduction, mesh);
    case CollectiveKind::kReduceScatter:
      return inferReduceScatter(operand, c.axes_per_dim, c.reduction, mesh);
    case CollectiveKind::kShardedToUnreduced:
      return inferShardedToUnreduced(operand, c.axes_per_dim, mesh);
    case CollectiveKind::kReplicatedToUnreduced:
      return inferReplicatedToUnreduced(operand, c.axes, mesh);
  }
  return invalid("unknown collective kind");
}

absl::StatusOr<TensorSharding> inferOutSharding(const Collective& c,
                                                const TensorSharding& operand,
                                                const MeshTable& meshes) {
  const Mesh* mesh = meshes.resolve(operand);
  if (mesh == nullptr) {
    return invalid(strCat("unknown mesh: ", toString(operand.mesh)));
  }
  const Mesh* target_mesh = mesh;
  if (c.kind == CollectiveKind::kCollectivePermute) {
    target_mesh = meshes.resolve(c.out_sharding);
    if (target_mesh == nullptr) {
      return invalid(strCat("unknown mesh: ", toString(c.out_sharding.mesh)));
    }
  }
  return inferOutSharding(c, operand, *mesh, *target_mesh);
}

bool sameShardingAxes(const TensorSharding& a, const TensorSharding& b) {
  if (a.rank() != b.rank() || a.unreduced_axes != b.unreduced_axes) {
    return false;
  }
  if (!a.unreduced_axes.empty() && a.unreduced_kind != b.unreduced_kind) {
    return false;
  }
  for (int64_t dim = 0; dim < a.rank(); ++dim) {
    if (a.dim_shardings[dim].axes != b.dim_shardings[dim].axes) return false;
  }
  return true;
}

bool sameDistribution(const TensorSharding& a, const TensorSharding& b) {
  return a.mesh == b.mesh && sameShardingAxes(a, b);
}

namespace {

absl::Status compareWithInferred(const Collective& collective,
                                 const TensorSharding& inferred) {
  if (!sameDistribution(inferred, collective.out_sharding)) {
    return invalid(strCat("out sharding ", toString(collective.out_sharding),
                          " of ", mnemonic(collective.kind),
                          " doesn't match the inferred sharding ",
                          toString(inferred)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status verifyCollective(const Collective& collective,
                              const TensorSharding& operand,
                              const MeshTable& meshes) {
  SK_ASSIGN_OR_RETURN(TensorSharding inferred,
                      inferOutSharding(collective, operand, meshes));
  return compareWithInferred(collective, inferred);
}

absl::Status verifyCollective(const Collective& collective,
                              const TensorSharding& operand,
                              const Mesh& operand_mesh,
                              const Mesh& target_mesh) {
  SK_ASSIGN_OR_RETURN(
      TensorSharding inferred,
      inferOutSharding(collective, operand, operand_mesh, target_mesh));
  return compareWithInferred(collective, inferred);
}

}  // namespace shardkit
