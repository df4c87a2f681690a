// Verification of the sharding algebra of sdy collectives and of the
// unreduced-axes rules of reshard / sharding_constraint (see core/verify.h
// for what every verifier guarantees).
//
// These check the parts of the sdy collective ops that are pure sharding
// algebra. The caller has already verified `result` (verifyTensorSharding),
// resolved the meshes, and supplies the operand sharding (for a value
// without one, an open sharding of the right rank on the result's mesh).
#ifndef SHARDKIT_CORE_VERIFY_COLLECTIVE_H_
#define SHARDKIT_CORE_VERIFY_COLLECTIVE_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/core/verify_unreduced.h"
#include "shardkit/internal/core_verify_util.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// The operand and result shardings of a collective: both bound to the same
// mesh unless `allow_different_meshes` (`result mesh does not match operand
// mesh`), and of the same rank (`result sharding has rank 2 but operand
// sharding has rank 1`).
absl::Status verifyCollectiveShardings(const TensorSharding& operand,
                                       const Mesh& operand_mesh,
                                       const TensorSharding& result,
                                       const Mesh& result_mesh,
                                       bool allow_different_meshes = false);

// How a per-dimension collective maps the operand's dimension axes to the
// result's: all_gather and sharded_to_unreduced remove a suffix (the latter's
// messages say `shard-to-unreduce axis`), all_slice and reduce_scatter append.
enum class AxesPerDimCollective { kGather, kSlice, kShardedToUnreduced };

// all_gather / all_slice / reduce_scatter / sharded_to_unreduced: the
// per-dimension axes form one axis-ref list together (known names, no ref
// twice across dimensions, no two adjacent mergeable sub-axes), there is one
// list per result dimension, and applying them to each operand dimension
// gives the result's axes (`can't apply gathering axis "y" to operand sharding
// on dimension 1`, `result sharding doesn't match expected sharding ["x"] on
// dimension 1`).
absl::Status verifyAxesPerDimCollective(AxesPerDimCollective kind,
                                        const ListOfAxisRefLists& axes_per_dim,
                                        const TensorSharding& operand,
                                        const TensorSharding& result,
                                        const Mesh& mesh);

// reduce_scatter reducing by `reduction`: it may remove (reduce) unreduced
// axes of that kind and introduces none; then as verifyAxesPerDimCollective.
absl::Status verifyReduceScatter(const ListOfAxisRefLists& axes_per_dim,
                                 ReductionKind reduction,
                                 const TensorSharding& operand,
                                 const TensorSharding& result,
                                 const Mesh& mesh);

// sharded_to_unreduced: a `sum` result; the axes are gathered from the
// operand's dimensions (as all_gather) and the result's unreduced axes are
// the operand's plus them, sorted and merged.
absl::Status verifyShardedToUnreduced(const ListOfAxisRefLists& axes_per_dim,
                                      const TensorSharding& operand,
                                      const TensorSharding& result,
                                      const Mesh& mesh);

// replicated_to_unreduced: a `sum` result with the operand's dimension
// shardings; non-empty axes in mesh order forming a valid list, none
// overlapping the operand's dimension axes or unreduced axes; the result's
// unreduced axes are the operand's plus them, sorted and merged.
absl::Status verifyReplicatedToUnreduced(absl::Span<const AxisRef> axes,
                                         const TensorSharding& operand,
                                         const TensorSharding& result,
                                         const Mesh& mesh);

// all_to_all: a non-empty parameter list; per parameter valid axes (one list
// across all parameters), source and target dimensions in [0, rank), no
// dimension used twice, source dimensions ascending; then moving each
// parameter's axes from the end of the source dimension to the end of the
// target dimension gives the result, and every other dimension is unchanged.
absl::Status verifyAllToAll(const AllToAllParamList& params,
                            const TensorSharding& operand,
                            const TensorSharding& result, const Mesh& mesh);

// all_reduce reducing by `reduction`: operand and result shardings are
// equivalent ignoring unreduced axes (both without dimension axes, or the
// same mesh reference and the same axes per dimension); the reduction axes
// are in mesh order and a valid list; none overlaps the operand's dimension
// or replicated axes, nor the result's unreduced axes; unreduced axes may be
// removed (reduced, when of kind `reduction`), never introduced.
absl::Status verifyAllReduce(absl::Span<const AxisRef> reduction_axes,
                             ReductionKind reduction,
                             const TensorSharding& operand,
                             const TensorSharding& result, const Mesh& mesh);

// collective_permute: when the two shardings name different meshes, the
// meshes have the same axes and a different device order; every dimension
// keeps its number of shards.
absl::Status verifyCollectivePermute(const TensorSharding& operand,
                                     const Mesh& operand_mesh,
                                     const TensorSharding& result,
                                     const Mesh& result_mesh);

// sdy.reshard / sdy.sharding_constraint from `source` to `target` without a
// mesh (whole refs compared; the sim layer's check): unreduced axes kept from
// the source keep their reduction kind, and newly introduced unreduced axes
// are a sum. The op verifiers use the mesh overload (core/verify_unreduced.h).
absl::Status verifyUnreducedTransition(const TensorSharding& source,
                                       const TensorSharding& target);

// Implementation.

namespace verify_internal {

// Removes `gathered` from the end of `axes`, one ref at a time from the most
// minor: each must be a suffix of the current last axis, which is replaced by
// what remains of it. `what` names the collective axis kind in the message.
inline absl::Status gatherAxes(AxisRefVector& axes,
                               absl::Span<const AxisRef> gathered, int64_t dim,
                               const Mesh& mesh, std::string_view what) {
  for (size_t k = gathered.size(); k-- > 0;) {
    const AxisRef& axis = gathered[k];
    if (axes.empty() || !isSuffixOf(axis, axes.back(), mesh)) {
      return invalid(strCat("can't apply ", what, " axis ", toString(axis),
                            " to operand sharding on dimension ", dim));
    }
    AxisRef last = std::move(axes.back());
    axes.pop_back();
    if (std::optional<AxisRef> rest = prefixWithoutOverlap(last, axis)) {
      axes.push_back(std::move(*rest));
    }
  }
  return absl::OkStatus();
}

inline absl::Status expectDimAxes(absl::Span<const AxisRef> expected,
                                  const TensorSharding& result, int64_t dim) {
  if (absl::Span<const AxisRef>(result.dim_shardings[dim].axes) != expected) {
    return invalid(strCat("result sharding doesn't match expected sharding ",
                          bracketedAxes(expected), " on dimension ", dim));
  }
  return absl::OkStatus();
}

inline absl::Status checkDimInRange(int64_t dim, int64_t rank,
                                    std::string_view what) {
  if (dim < 0 || dim >= rank) {
    return invalid(
        strCat(what, " dimension ", dim, " is out of range [0, ", rank, ")"));
  }
  return absl::OkStatus();
}

// The parameter checks of all_to_all that do not look at the shardings'
// axes: valid axis lists, dimensions in range, distinct, sources ascending.
inline absl::Status verifyAllToAllParams(const AllToAllParamList& params,
                                         int64_t rank, const Mesh& mesh) {
  if (params.empty()) return invalid("parameter list is empty");
  AxisRefChecker checker(mesh);
  std::vector<char> seen_dims(rank, 0);
  int64_t previous_src = -1;
  for (const AllToAllParam& param : params) {
    SK_RETURN_IF_ERROR(checker.addList(param.axes));
    SK_RETURN_IF_ERROR(checkDimInRange(param.src_dim, rank, "source"));
    SK_RETURN_IF_ERROR(checkDimInRange(param.tgt_dim, rank, "target"));
    for (int64_t dim : {param.src_dim, param.tgt_dim}) {
      if (seen_dims[dim]) {
        return invalid(strCat(
            "overlapping source/target dimensions in all-to-all params: ",
            dim));
      }
      seen_dims[dim] = 1;
    }
    if (previous_src >= param.src_dim) {
      return invalid(
          strCat("source dimensions are not sorted in ascending order: ",
                 param.src_dim, " appears after ", previous_src));
    }
    previous_src = param.src_dim;
  }
  // Like the reference, collective axes are not checked sub-axis by sub-axis
  // (no AxisRefChecker::finish).
  return absl::OkStatus();
}

inline std::string_view kindName(ReductionKind kind) { return toString(kind); }

}  // namespace verify_internal

inline absl::Status verifyCollectiveShardings(const TensorSharding& operand,
                                              const Mesh& operand_mesh,
                                              const TensorSharding& result,
                                              const Mesh& result_mesh,
                                              bool allow_different_meshes) {
  if (!allow_different_meshes && !(operand_mesh == result_mesh)) {
    return verify_internal::invalid(strCat(
        "result mesh does not match operand mesh ", toString(operand_mesh)));
  }
  if (operand.rank() != result.rank()) {
    return verify_internal::invalid(
        strCat("result sharding has rank ", result.rank(),
               " but operand sharding has rank ", operand.rank()));
  }
  return absl::OkStatus();
}

inline absl::Status verifyAxesPerDimCollective(
    AxesPerDimCollective kind, const ListOfAxisRefLists& axes_per_dim,
    const TensorSharding& operand, const TensorSharding& result,
    const Mesh& mesh) {
  verify_internal::AxisRefChecker checker(mesh);
  for (const AxisRefList& list : axes_per_dim) {
    SK_RETURN_IF_ERROR(checker.addList(list));
  }
  const int64_t rank = static_cast<int64_t>(axes_per_dim.size());
  if (result.rank() != rank) {
    return verify_internal::invalid(
        strCat("result sharding has rank ", result.rank(),
               " but collective axes has rank ", rank));
  }
  if (operand.rank() != rank) {
    return verify_internal::invalid(
        strCat("operand sharding has rank ", operand.rank(),
               " but collective axes has rank ", rank));
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    AxisRefVector expected = operand.dim_shardings[dim].axes;
    const AxisRefVector& collective_axes = axes_per_dim[dim].items;
    if (kind == AxesPerDimCollective::kSlice) {
      appendAxes(expected, collective_axes, mesh);
    } else {
      SK_RETURN_IF_ERROR(verify_internal::gatherAxes(
          expected, collective_axes, dim, mesh,
          kind == AxesPerDimCollective::kGather ? "gathering"
                                                : "shard-to-unreduce"));
    }
    SK_RETURN_IF_ERROR(verify_internal::expectDimAxes(expected, result, dim));
  }
  return absl::OkStatus();
}

inline absl::Status verifyReduceScatter(const ListOfAxisRefLists& axes_per_dim,
                                        ReductionKind reduction,
                                        const TensorSharding& operand,
                                        const TensorSharding& result,
                                        const Mesh& mesh) {
  const TensorSharding* in[] = {&operand};
  const TensorSharding* out[] = {&result};
  SK_RETURN_IF_ERROR(verifyUnreducedAxesTransition(
      in, out, mesh, {.introduced = std::nullopt, .removed = reduction}));
  return verifyAxesPerDimCollective(AxesPerDimCollective::kSlice, axes_per_dim,
                                    operand, result, mesh);
}

namespace verify_internal {

inline absl::Status expectSumResult(const TensorSharding& result) {
  if (result.unreduced_kind != ReductionKind::kSum) {
    return invalid("out_sharding reduction_op must be SUM");
  }
  return absl::OkStatus();
}

// The operand's unreduced axes plus `added`, sorted and merged: what a
// collective turning axes unreduced gives.
inline AxisRefVector unreducedPlus(const TensorSharding& operand,
                                   absl::Span<const AxisRef> added,
                                   const Mesh& mesh) {
  AxisRefVector axes = operand.unreduced_axes;
  axes.insert(axes.end(), added.begin(), added.end());
  sortAndMergeAxes(axes, mesh);
  return axes;
}

}  // namespace verify_internal

inline absl::Status verifyShardedToUnreduced(
    const ListOfAxisRefLists& axes_per_dim, const TensorSharding& operand,
    const TensorSharding& result, const Mesh& mesh) {
  SK_RETURN_IF_ERROR(verify_internal::expectSumResult(result));
  SK_RETURN_IF_ERROR(
      verifyAxesPerDimCollective(AxesPerDimCollective::kShardedToUnreduced,
                                 axes_per_dim, operand, result, mesh));
  AxisRefVector added;
  for (const AxisRefList& list : axes_per_dim) {
    added.insert(added.end(), list.items.begin(), list.items.end());
  }
  if (verify_internal::unreducedPlus(operand, added, mesh) !=
      result.unreduced_axes) {
    return verify_internal::invalid(
        "out_unreduced_axes should be in_unreduced_axes + "
        "sharded_to_unreduced_axes");
  }
  return absl::OkStatus();
}

inline absl::Status verifyReplicatedToUnreduced(absl::Span<const AxisRef> axes,
                                                const TensorSharding& operand,
                                                const TensorSharding& result,
                                                const Mesh& mesh) {
  using verify_internal::invalid;
  SK_RETURN_IF_ERROR(verify_internal::expectSumResult(result));
  if (operand.dim_shardings != result.dim_shardings) {
    return invalid("input and output must share the same dimension shardings");
  }
  if (axes.empty()) return invalid("r2u axes must not be empty");
  if (!std::is_sorted(axes.begin(), axes.end(), MeshAxisLess(mesh))) {
    return invalid("r2u axes are not ordered w.r.t. mesh");
  }
  verify_internal::AxisRefChecker checker(mesh);
  SK_RETURN_IF_ERROR(checker.addList(axes));
  for (const AxisRef& axis : axes) {
    bool in_dims = false;
    operand.forEachShardingAxis(
        [&](const AxisRef& a) { in_dims = in_dims || overlaps(a, axis); });
    if (in_dims) {
      return invalid(strCat("r2u axis ", toString(axis),
                            " overlaps with operand dimension sharding"));
    }
    if (overlapsAny(operand.unreduced_axes, axis)) {
      return invalid(strCat("r2u axis ", toString(axis),
                            " overlaps with operand unreduced axes"));
    }
  }
  if (verify_internal::unreducedPlus(operand, axes, mesh) !=
      result.unreduced_axes) {
    return invalid("out_unreduced_axes should be in_unreduced_axes + r2u_axes");
  }
  return absl::OkStatus();
}

inline absl::Status verifyAllToAll(const AllToAllParamList& params,
                                   const TensorSharding& operand,
                                   const TensorSharding& result,
                                   const Mesh& mesh) {
  const int64_t rank = result.rank();
  SK_RETURN_IF_ERROR(verify_internal::verifyAllToAllParams(params, rank, mesh));
  if (operand.rank() != rank) {
    return verify_internal::invalid(strCat("result sharding has rank ", rank,
                                           " but operand sharding has rank ",
                                           operand.rank()));
  }
  // Dimension checks come first so that an overlapping pair is reported as
  // such rather than as a sharding mismatch.
  std::vector<char> moved(rank, 0);
  for (const AllToAllParam& param : params) {
    AxisRefVector src = operand.dim_shardings[param.src_dim].axes;
    SK_RETURN_IF_ERROR(verify_internal::gatherAxes(
        src, param.axes, param.src_dim, mesh, "all-to-all"));
    SK_RETURN_IF_ERROR(
        verify_internal::expectDimAxes(src, result, param.src_dim));
    AxisRefVector tgt = operand.dim_shardings[param.tgt_dim].axes;
    appendAxes(tgt, param.axes, mesh);
    SK_RETURN_IF_ERROR(
        verify_internal::expectDimAxes(tgt, result, param.tgt_dim));
    moved[param.src_dim] = moved[param.tgt_dim] = 1;
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (moved[dim]) continue;
    SK_RETURN_IF_ERROR(verify_internal::expectDimAxes(
        operand.dim_shardings[dim].axes, result, dim));
  }
  return absl::OkStatus();
}

namespace verify_internal {

// The reference's sharding equivalence ignoring unreduced axes.
inline bool equivalentIgnoringUnreduced(const TensorSharding& a,
                                        const TensorSharding& b) {
  auto no_dim_axes = [](const TensorSharding& s) {
    return std::all_of(s.dim_shardings.begin(), s.dim_shardings.end(),
                       [](const DimensionSharding& d) { return d.empty(); });
  };
  if (no_dim_axes(a)) return no_dim_axes(b);
  if (!(a.mesh == b.mesh) || a.rank() != b.rank()) return false;
  for (int64_t dim = 0; dim < a.rank(); ++dim) {
    if (a.dim_shardings[dim].axes != b.dim_shardings[dim].axes) return false;
  }
  return true;
}

}  // namespace verify_internal

inline absl::Status verifyAllReduce(absl::Span<const AxisRef> reduction_axes,
                                    ReductionKind reduction,
                                    const TensorSharding& operand,
                                    const TensorSharding& result,
                                    const Mesh& mesh) {
  using verify_internal::invalid;
  if (!verify_internal::equivalentIgnoringUnreduced(operand, result)) {
    return invalid("operand and result shardings are not equivalent");
  }
  if (!std::is_sorted(reduction_axes.begin(), reduction_axes.end(),
                      MeshAxisLess(mesh))) {
    return invalid("reduction axes are not ordered w.r.t. mesh");
  }
  verify_internal::AxisRefChecker checker(mesh);
  SK_RETURN_IF_ERROR(checker.addList(reduction_axes));
  for (const AxisRef& axis : reduction_axes) {
    bool in_operand = overlapsAny(operand.replicated_axes, axis);
    operand.forEachShardingAxis([&](const AxisRef& a) {
      in_operand = in_operand || overlaps(a, axis);
    });
    if (in_operand) {
      return invalid(strCat("reduction axis ", toString(axis),
                            " overlaps with operand dimension sharding or "
                            "replicated axes"));
    }
    if (overlapsAny(result.unreduced_axes, axis)) {
      return invalid(strCat("reduction axis ", toString(axis),
                            " overlaps with result unreduced axes"));
    }
  }
  const TensorSharding* in[] = {&operand};
  const TensorSharding* out[] = {&result};
  return verifyUnreducedAxesTransition(
      in, out, mesh, {.introduced = std::nullopt, .removed = reduction});
}

inline absl::Status verifyCollectivePermute(const TensorSharding& operand,
                                            const Mesh& operand_mesh,
                                            const TensorSharding& result,
                                            const Mesh& result_mesh) {
  if (operand_mesh.axes != result_mesh.axes) {
    return verify_internal::invalid(
        strCat("result mesh has different axes than operand mesh ",
               toString(operand_mesh)));
  }
  if (!(operand.mesh == result.mesh) &&
      operand_mesh.sameDeviceOrder(result_mesh)) {
    return verify_internal::invalid(strCat(
        "result mesh name is different but same device ids as operand mesh ",
        toString(operand_mesh)));
  }
  if (operand.rank() != result.rank()) {
    return verify_internal::invalid(
        strCat("result sharding has rank ", result.rank(),
               " but operand sharding has rank ", operand.rank()));
  }
  for (int64_t dim = 0; dim < result.rank(); ++dim) {
    const AxisRefVector& in = operand.dim_shardings[dim].axes;
    const AxisRefVector& out = result.dim_shardings[dim].axes;
    if (in == out) continue;
    int64_t in_size = axesProduct(in, result_mesh);
    int64_t out_size = axesProduct(out, result_mesh);
    if (in_size != out_size) {
      return verify_internal::invalid(
          strCat("sharded size of result doesn't match operand on dimension ",
                 dim, ": ", out_size, " != ", in_size));
    }
  }
  return absl::OkStatus();
}

inline absl::Status verifyUnreducedTransition(const TensorSharding& source,
                                              const TensorSharding& target) {
  const AxisRefVector& before = source.unreduced_axes;
  bool keeps_axes = false;
  bool introduces_axes = false;
  for (const AxisRef& axis : target.unreduced_axes) {
    bool kept = std::find(before.begin(), before.end(), axis) != before.end();
    keeps_axes = keeps_axes || kept;
    introduces_axes = introduces_axes || !kept;
  }
  if (keeps_axes && source.unreduced_kind != target.unreduced_kind) {
    return verify_internal::invalid(strCat(
        "cannot change the reduction operator of kept unreduced axes from ",
        verify_internal::kindName(source.unreduced_kind), " to ",
        verify_internal::kindName(target.unreduced_kind), "."));
  }
  if (introduces_axes && target.unreduced_kind != ReductionKind::kSum) {
    return verify_internal::invalid(strCat(
        "cannot introduce '", verify_internal::kindName(target.unreduced_kind),
        "' unreduced axes. Expected 'sum'."));
  }
  return absl::OkStatus();
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_COLLECTIVE_H_
