// Rules of the StableHLO collectives. Dimensions a collective does not touch
// are pointwise; a dimension it gathers, splits or scatters gets one factor
// for the operands and another for the results, both needing replication.
// all_reduce and collective_permute are pointwise (use pointwiseRule).
#ifndef SHARDKIT_RULES_COLLECTIVE_RULES_H_
#define SHARDKIT_RULES_COLLECTIVE_RULES_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// all_gather(operands...) -> results... along `all_gather_dim`.
absl::StatusOr<OpShardingRule> allGatherRule(absl::Span<const Shape> operands,
                                             absl::Span<const Shape> results,
                                             int64_t all_gather_dim);

// all_to_all(operands...) -> results...: the split dim, then (if different)
// the concat dim, each with an operand and a result factor.
absl::StatusOr<OpShardingRule> allToAllRule(absl::Span<const Shape> operands,
                                            absl::Span<const Shape> results,
                                            int64_t split_dimension,
                                            int64_t concat_dimension);

// reduce_scatter(operands...) -> results... along `scatter_dimension`.
absl::StatusOr<OpShardingRule> reduceScatterRule(
    absl::Span<const Shape> operands, absl::Span<const Shape> results,
    int64_t scatter_dimension);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_COLLECTIVE_RULES_H_
