// Verification of the sharding algebra of sdy collectives and of the
// unreduced-axes rules of reshard / sharding_constraint.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/core/verify.h"
#include "verify_internal.h"

namespace shardkit {

using verify_internal::bracketedAxes;
using verify_internal::invalid;

namespace {

// Removes `gathered` from the end of `axes`, one ref at a time from the most
// minor: each must be a suffix of the current last axis, which is replaced by
// what remains of it. `what` names the collective axis kind in the message.
absl::Status gatherAxes(std::vector<AxisRef>& axes,
                        absl::Span<const AxisRef> gathered, int64_t dim,
                        const Mesh& mesh, std::string_view what) {
  for (auto it = gathered.rbegin(); it != gathered.rend(); ++it) {
    if (axes.empty() || !isSuffixOf(*it, axes.back(), mesh)) {
      return invalid(strCat("can't apply ", what, " axis ", toString(*it),
                            " to operand sharding on dimension ", dim));
    }
    AxisRef last = std::move(axes.back());
    axes.pop_back();
    if (std::optional<AxisRef> rest = prefixWithoutOverlap(last, *it)) {
      axes.push_back(std::move(*rest));
    }
  }
  return absl::OkStatus();
}

absl::Status expectDimAxes(absl::Span<const AxisRef> expected,
                           const TensorSharding& result, int64_t dim) {
  if (absl::Span<const AxisRef>(result.dim_shardings[dim].axes) != expected) {
    return invalid(strCat("result sharding doesn't match expected sharding ",
                          bracketedAxes(expected), " on dimension ", dim));
  }
  return absl::OkStatus();
}

absl::Status checkDimInRange(int64_t dim, int64_t rank, std::string_view what) {
  if (dim < 0 || dim >= rank) {
    return invalid(
        strCat(what, " dimension ", dim, " is out of range [0, ", rank, ")"));
  }
  return absl::OkStatus();
}

// The parameter checks of all_to_all that do not look at the shardings'
// axes: valid axis lists, dimensions in range, distinct, sources ascending.
absl::Status verifyAllToAllParams(const AllToAllParamList& params, int64_t rank,
                                  const Mesh& mesh) {
  if (params.params.empty()) return invalid("parameter list is empty");
  verify_internal::AxisRefChecker checker(mesh);
  std::vector<bool> seen_dims(rank, false);
  int64_t previous_src = -1;
  for (const AllToAllParam& param : params.params) {
    SK_RETURN_IF_ERROR(checker.addList(param.axes));
    SK_RETURN_IF_ERROR(checkDimInRange(param.src_dim, rank, "source"));
    SK_RETURN_IF_ERROR(checkDimInRange(param.tgt_dim, rank, "target"));
    for (int64_t dim : {param.src_dim, param.tgt_dim}) {
      if (seen_dims[dim]) {
        return invalid(strCat(
            "overlapping source/target dimensions in all-to-all params: ",
            dim));
      }
      seen_dims[dim] = true;
    }
    if (previous_src >= param.src_dim) {
      return invalid(
          strCat("source dimensions are not sorted in ascending order: ",
                 param.src_dim, " appears after ", previous_src));
    }
    previous_src = param.src_dim;
  }
  return checker.finish();
}

std::string_view kindName(ReductionKind kind) { return toString(kind); }

}  // namespace

absl::Status verifyCollectiveShardings(const TensorSharding& operand,
                                       const Mesh& operand_mesh,
                                       const TensorSharding& result,
                                       const Mesh& result_mesh,
                                       bool allow_different_meshes) {
  if (!allow_different_meshes && !(operand_mesh == result_mesh)) {
    return invalid(strCat("result mesh does not match operand mesh ",
                          toString(operand_mesh)));
  }
  if (operand.rank() != result.rank()) {
    return invalid(strCat("result sharding has rank ", result.rank(),
                          " but operand sharding has rank ", operand.rank()));
  }
  return absl::OkStatus();
}

absl::Status verifyAxesPerDimCollective(AxesPerDimCollective kind,
                                        const ListOfAxisRefLists& axes_per_dim,
                                        const TensorSharding& operand,
                                        const TensorSharding& result,
                                        const Mesh& mesh) {
  verify_internal::AxisRefChecker checker(mesh);
  for (const AxisRefList& list : axes_per_dim.lists) {
    SK_RETURN_IF_ERROR(checker.addList(list.axes));
  }
  SK_RETURN_IF_ERROR(checker.finish());
  const int64_t rank = static_cast<int64_t>(axes_per_dim.lists.size());
  if (result.rank() != rank) {
    return invalid(strCat("result sharding has rank ", result.rank(),
                          " but collective axes has rank ", rank));
  }
  if (operand.rank() != rank) {
    return invalid(strCat("operand sharding has rank ", operand.rank(),
                          " but collective axes has rank ", rank));
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    std::vector<AxisRef> expected = operand.dim_shardings[dim].axes;
    const std::vector<AxisRef>& collective_axes = axes_per_dim.lists[dim].axes;
    if (kind == AxesPerDimCollective::kGather) {
      SK_RETURN_IF_ERROR(
          gatherAxes(expected, collective_axes, dim, mesh, "gathering"));
    } else {
      appendAxes(expected, collective_axes, mesh);
    }
    SK_RETURN_IF_ERROR(expectDimAxes(expected, result, dim));
  }
  return absl::OkStatus();
}

absl::Status verifyAllToAll(const AllToAllParamList& params,
                            const TensorSharding& operand,
                            const TensorSharding& result, const Mesh& mesh) {
  const int64_t rank = result.rank();
  SK_RETURN_IF_ERROR(verifyAllToAllParams(params, rank, mesh));
  if (operand.rank() != rank) {
    return invalid(strCat("result sharding has rank ", rank,
                          " but operand sharding has rank ", operand.rank()));
  }
  // Dimension checks come first so that an overlapping pair is reported as
  // such rather than as a sharding mismatch.
  std::vector<bool> moved(rank, false);
  for (const AllToAllParam& param : params.params) {
    std::vector<AxisRef> src = operand.dim_shardings[param.src_dim].axes;
    SK_RETURN_IF_ERROR(
        gatherAxes(src, param.axes, param.src_dim, mesh, "all-to-all"));
    SK_RETURN_IF_ERROR(expectDimAxes(src, result, param.src_dim));
    std::vector<AxisRef> tgt = operand.dim_shardings[param.tgt_dim].axes;
    appendAxes(tgt, param.axes, mesh);
    SK_RETURN_IF_ERROR(expectDimAxes(tgt, result, param.tgt_dim));
    moved[param.src_dim] = moved[param.tgt_dim] = true;
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (moved[dim]) continue;
    SK_RETURN_IF_ERROR(
        expectDimAxes(operand.dim_shardings[dim].axes, result, dim));
  }
  return absl::OkStatus();
}

absl::Status verifyAllReduce(absl::Span<const AxisRef> reduction_axes,
                             const TensorSharding& operand,
                             const TensorSharding& result, const Mesh& mesh) {
  bool same_dims = operand.rank() == result.rank();
  for (int64_t dim = 0; same_dims && dim < operand.rank(); ++dim) {
    same_dims =
        operand.dim_shardings[dim].axes == result.dim_shardings[dim].axes;
  }
  if (!same_dims) {
    return invalid("operand and result sharding have different axes");
  }
  SK_RETURN_IF_ERROR(verifyAxisRefList(reduction_axes, mesh));
  for (const AxisRef& axis : reduction_axes) {
    bool in_operand = overlapsAny(operand.replicated_axes, axis);
    operand.forEachShardingAxis([&](const AxisRef& a) {
      in_operand = in_operand || overlaps(a, axis);
    });
    if (in_operand) {
      return invalid(strCat("reduction axis ", toString(axis),
                            " overlaps with operand sharding (dimension or "
                            "replicated axes)"));
    }
    if (overlapsAny(result.unreduced_axes, axis)) {
      return invalid(strCat("reduction axis ", toString(axis),
                            " overlaps with result unreduced axes"));
    }
  }
  return absl::OkStatus();
}

absl::Status verifyCollectivePermute(const TensorSharding& operand,
                                     const Mesh& operand_mesh,
                                     const TensorSharding& result,
                                     const Mesh& result_mesh) {
  if (operand_mesh.axes != result_mesh.axes) {
    return invalid(strCat("result mesh has different axes than operand mesh ",
                          toString(operand_mesh)));
  }
  if (!(operand.mesh == result.mesh) &&
      operand_mesh.deviceIdsOrIota() == result_mesh.deviceIdsOrIota()) {
    return invalid(strCat(
        "result mesh name is different but same device ids as operand mesh ",
        toString(operand_mesh)));
  }
  if (operand.rank() != result.rank()) {
    return invalid(strCat("result sharding has rank ", result.rank(),
                          " but operand sharding has rank ", operand.rank()));
  }
  for (int64_t dim = 0; dim < result.rank(); ++dim) {
    const std::vector<AxisRef>& in = operand.dim_shardings[dim].axes;
    const std::vector<AxisRef>& out = result.dim_shardings[dim].axes;
    if (in == out) continue;
    int64_t in_size = axesProduct(in, result_mesh);
    int64_t out_size = axesProduct(out, result_mesh);
    if (in_size != out_size) {
      return invalid(
          strCat("sharded size of result doesn't match operand on dimension ",
                 dim, ": ", out_size, " != ", in_size));
    }
  }
  return absl::OkStatus();
}

absl::Status verifyUnreducedTransition(const TensorSharding& source,
                                       const TensorSharding& target) {
  const std::vector<AxisRef>& before = source.unreduced_axes;
  bool keeps_axes = false;
  bool introduces_axes = false;
  for (const AxisRef& axis : target.unreduced_axes) {
    bool kept = std::find(before.begin(), before.end(), axis) != before.end();
    keeps_axes = keeps_axes || kept;
    introduces_axes = introduces_axes || !kept;
  }
  if (keeps_axes && source.unreduced_kind != target.unreduced_kind) {
    return invalid(strCat(
        "cannot change the reduction operator of kept unreduced axes from ",
        kindName(source.unreduced_kind), " to ",
        kindName(target.unreduced_kind), "."));
  }
  if (introduces_axes && target.unreduced_kind != ReductionKind::kSum) {
    return invalid(strCat("cannot introduce '", kindName(target.unreduced_kind),
                          "' unreduced axes. Expected 'sum'."));
  }
  return absl::OkStatus();
}

}  // namespace shardkit
