// Rules of gather and scatter. Both relate an operand ("input"), the start
// indices and a tensor of slices (the gather result, the scatter updates):
//  - a slice batch dim maps to an indices dim (skipping index_vector_dim) and,
//    if it is an explicit batching dim, to the matching input dim;
//  - a slice offset dim maps to the next input dim that is neither collapsed
//    nor batching, sharing one factor when the slice spans the whole dim;
//  - collapsed/inserted input dims and the index vector dim get their own
//    factors.
#ifndef SHARDKIT_RULES_GATHER_SCATTER_RULES_H_
#define SHARDKIT_RULES_GATHER_SCATTER_RULES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/dimension_numbers.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Gather's and scatter's dimension numbers are one plain struct,
// SliceDimensionNumbers (core/dimension_numbers.h), read from
// `#stablehlo.gather<...>` / `#stablehlo.scatter<...>` by the text layer.

// gather(operand, start_indices) -> result. A sliced offset dim is a blocked
// need-replication factor, except a slice of size 1, where the input factor
// is a reduction (an all-reduce of the result keeps the operand sharded).
// Collapsed dims are reduction factors (need-replication when of size 1);
// the index vector dim needs replication.
absl::StatusOr<OpShardingRule> gatherRule(const Shape& operand,
                                          const Shape& start_indices,
                                          const Shape& result,
                                          const GatherDimensionNumbers& dims);

// scatter(inputs..., scatter_indices, updates...) -> results (shaped like
// the inputs). Batch dims that exist only in the indices and updates are
// reduction factors when the update computation is a reduction the
// partitioner can all-reduce (`combiner_is_reduction`), else they need
// replication. Sliced window dims need replication on both sides; inserted
// dims are pass-through; the index vector dim needs replication.
absl::StatusOr<OpShardingRule> scatterRule(absl::Span<const Shape> inputs,
                                           const Shape& scatter_indices,
                                           absl::Span<const Shape> updates,
                                           const ScatterDimensionNumbers& dims,
                                           bool combiner_is_reduction = true);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_GATHER_SCATTER_RULES_H_
