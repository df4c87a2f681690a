// -sdy-convert-global-to-local: dot, dot_general and convolution. Their
// local ops are the global ones on local operands; a sharded contraction
// must feed an sdy.all_reduce over its axes (inserted before this pass), and
// a convolution's feature and batch group counts shrink with the shards.
#include <algorithm>
#include <string>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/partition/global_to_local.h"

namespace shardkit::partition {
namespace {

// Whether `op`'s only use is an sdy.all_reduce over exactly `axes`.
enum class ReduceCheck { kOk, kNotOneAllReduce, kOtherAxes };
ReduceCheck checkAllReduceUser(Op op, absl::Span<const AxisRef> axes) {
  auto reduce = dynCast<sdy::AllReduceOp>(op.result(0).soleUser());
  if (!reduce) return ReduceCheck::kNotOneAllReduce;
  const AxisRefList& reduced = reduce.axes();
  return std::equal(reduced.begin(), reduced.end(), axes.begin(), axes.end())
             ? ReduceCheck::kOk
             : ReduceCheck::kOtherAxes;
}

// The checks of a dot or dot_general whose lhs is sharded along contracting
// dims by `axes`; `what` names the op in the messages.
absl::Status checkShardedContraction(GlobalToLocal& c, Op op,
                                     absl::Span<const AxisRef> axes,
                                     std::string_view what,
                                     std::string_view dims) {
  for (unsigned i = 0; i < 2; ++i) {
    if (c.isPadWithNonZeroValue(c.originalOperand(i))) {
      return c.invariantError(
          op, strCat("Padding value must be zero for sharded contracting ",
                     what, "."));
    }
  }
  switch (checkAllReduceUser(op, axes)) {
    case ReduceCheck::kOk:
      return absl::OkStatus();
    case ReduceCheck::kNotOneAllReduce:
      return c.invariantError(
          op, strCat("Expected sharded contracting ", what,
                     " to have one user and the user is an sdy.all_reduce."));
    case ReduceCheck::kOtherAxes:
      break;
  }
  return c.invariantError(
      op, strCat("The axes of the sdy.all_reduce should match the sharded "
                 "contracting ",
                 dims, " of the ", what, "."));
}

// The group count of a convolution on one device: the global count divided
// by the shards of the dimension it groups (at most the count itself).
absl::StatusOr<int64_t> localGroupCount(GlobalToLocal& c, Op op, int64_t global,
                                        absl::Span<const AxisRef> axes,
                                        const Mesh& mesh) {
  if (global <= 1 || axes.empty()) return global;
  const int64_t divisor = std::min(global, totalAxesSize(axes, mesh));
  if (global % divisor != 0) {
    return c.invariantError(
        op, "global group count is not divisible by total axes size");
  }
  return global / divisor;
}

}  // namespace

absl::Status convertDot(GlobalToLocal& c, Op op) {
  const TensorSharding* lhs = c.operandSharding(0);
  if (!shardsNoDimension(lhs)) {
    const Mesh* mesh = c.meshOf(lhs);
    if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh.");
    Type lhs_type = c.operandGlobalType(0);
    const int64_t dim = lhs_type.rank() - 1;
    absl::Span<const AxisRef> axes = dimAxes(lhs, dim);
    if (!axes.empty()) {
      const int64_t size = lhs_type.shape()[dim];
      if (size % totalAxesSize(axes, *mesh) != 0) {
        return c.invariantError(
            op,
            "Sharded contracting dimension must be divisible by the total "
            "size of the axes sharding it.");
      }
      SK_RETURN_IF_ERROR(
          checkShardedContraction(c, op, axes, "dot", "dimension"));
    }
  }
  return c.localizeInPlace(op);
}

absl::Status convertDotGeneral(GlobalToLocal& c, Op op) {
  const TensorSharding* lhs = c.operandSharding(0);
  if (!shardsNoDimension(lhs)) {
    const Mesh* mesh = c.meshOf(lhs);
    if (mesh == nullptr) {
      return c.patternError(op, "failed to resolve mesh.", /*op_prefix=*/false);
    }
    std::optional<DotDimensionNumbers> dims =
        getDotDimensionNumbers(op.attr("dot_dimension_numbers"));
    if (!dims) {
      return c.invariantError(op, "expected dot dimension numbers");
    }
    Type lhs_type = c.operandGlobalType(0);
    AxisRefVector reduction;
    for (int64_t dim : dims->lhs_contracting) {
      absl::Span<const AxisRef> axes = dimAxes(lhs, dim);
      if (axes.empty()) continue;
      if (lhs_type.shape()[dim] % totalAxesSize(axes, *mesh) != 0) {
        return c.invariantError(
            op,
            "Sharded contracting dimension must be divisible by axes size.");
      }
      reduction.insert(reduction.end(), axes.begin(), axes.end());
    }
    if (!reduction.empty()) {
      SK_RETURN_IF_ERROR(checkShardedContraction(c, op, reduction,
                                                 "dot_general", "dimensions"));
    }
  }
  return c.localizeInPlace(op);
}

absl::Status convertConvolution(GlobalToLocal& c, Op op) {
  const TensorSharding* lhs = c.operandSharding(0);
  const TensorSharding* rhs = c.operandSharding(1);
  const TensorSharding* result = c.sharding(op.result(0));
  if (shardsNoDimension(lhs) && shardsNoDimension(rhs) &&
      shardsNoDimension(result)) {
    return c.localizeInPlace(op);
  }
  const Mesh* mesh = nullptr;
  for (const TensorSharding* s : {lhs, rhs, result}) {
    if (s != nullptr && (mesh = c.meshOf(s)) != nullptr) break;
  }
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  std::optional<ConvDimensionNumbers> dims =
      getConvDimensionNumbers(op.attr("dimension_numbers"));
  if (!dims) {
    return c.invariantError(op, "expected convolution dimension numbers");
  }
  // The axes sharding the kernel's contracting dims must be all-reduced
  // right after.
  AxisRefVector reduction;
  auto add = [&](int64_t dim) {
    for (const AxisRef& axis : dimAxes(rhs, dim)) {
      if (std::find(reduction.begin(), reduction.end(), axis) ==
          reduction.end()) {
        reduction.push_back(axis);
      }
    }
  };
  add(dims->kernel_input_feature);
  for (int64_t dim : dims->kernel_spatial) add(dim);
  if (!reduction.empty()) {
    sortAndMergeAxes(reduction, *mesh);
    switch (checkAllReduceUser(op, reduction)) {
      case ReduceCheck::kOk:
        break;
      case ReduceCheck::kNotOneAllReduce:
        return c.invariantError(
            op,
            "Expected sharded contracting convolution to have one user and "
            "the user is an sdy.all_reduce.");
      case ReduceCheck::kOtherAxes:
        return c.invariantError(
            op,
            "The axes of the sdy.all_reduce should match the sharded "
            "reduction dimensions of the convolution.");
    }
  }
  // feature_group_count groups the kernel's output features and
  // batch_group_count the input's batch (their partners are sharded alike).
  SK_ASSIGN_OR_RETURN(
      int64_t features,
      localGroupCount(c, op,
                      op.attr("feature_group_count").intValue().value_or(1),
                      dimAxes(rhs, dims->kernel_output_feature), *mesh));
  SK_ASSIGN_OR_RETURN(
      int64_t batches,
      localGroupCount(c, op,
                      op.attr("batch_group_count").intValue().value_or(1),
                      dimAxes(lhs, dims->input_batch), *mesh));
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result(0)));
  HloEmitter e(c.module(), op);
  OperationState state(op.opName());
  state.operands = op.operands();
  state.result_types = {local};
  state.inherent_attrs = op.inherentAttrs();
  state.inherent_attrs.set("feature_group_count", Attribute::integer(features));
  state.inherent_attrs.set("batch_group_count", Attribute::integer(batches));
  c.replace(op, {e.create1(state)});
  return absl::OkStatus();
}

}  // namespace shardkit::partition
