// Rules of contracting ops: dot, dot_general, convolution and
// triangular_solve. Contracting dimensions become reduction factors.
#ifndef SHARDKIT_RULES_CONTRACTION_RULES_H_
#define SHARDKIT_RULES_CONTRACTION_RULES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/dimension_numbers.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// DotDimensionNumbers and ConvDimensionNumbers are plain structs
// (core/dimension_numbers.h), read from `#stablehlo.dot<...>` /
// `#stablehlo.conv<...>` by the text layer.

// dot(lhs, rhs): vector or matrix operands. Factors: lhs non-contracting,
// rhs non-contracting, then the contracting (reduction) factor.
absl::StatusOr<OpShardingRule> dotRule(const Shape& lhs, const Shape& rhs,
                                       const Shape& result);

// dot_general: batching factors, lhs then rhs free dims (in dimension order),
// then the contracting (reduction) factors.
absl::StatusOr<OpShardingRule> dotGeneralRule(const Shape& lhs,
                                              const Shape& rhs,
                                              const Shape& result,
                                              const DotDimensionNumbers& dims);

// convolution. An input spatial dim is split into the number of windows
// (shared with the output, permutation) and the window size (shared with the
// kernel, reduction), the larger one major; with `conservative` spatial dims
// get no factors. batch_group_count/feature_group_count > 1 add a group
// factor shared by the input batch/feature dim and the kernel output feature.
absl::StatusOr<OpShardingRule> convolutionRule(
    const Shape& lhs, const Shape& rhs, const Shape& result,
    const ConvDimensionNumbers& dims, int64_t batch_group_count = 1,
    int64_t feature_group_count = 1, bool conservative = false);

// triangular_solve(a, b): batch dims pointwise; the matrix dims need
// replication. `transpose_a` is true for TRANSPOSE and ADJOINT.
absl::StatusOr<OpShardingRule> triangularSolveRule(const Shape& a,
                                                   const Shape& b,
                                                   const Shape& result,
                                                   bool left_side,
                                                   bool transpose_a);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_CONTRACTION_RULES_H_
