// Rules of ops that cut, pad or join tensors along dimensions: concatenate,
// slice, pad, dynamic_slice and dynamic_update_slice. A dimension whose size
// changes is still propagated through where the data can be moved into place
// (permutation), or kept for replication where it cannot.
#ifndef SHARDKIT_RULES_SLICING_RULES_H_
#define SHARDKIT_RULES_SLICING_RULES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Where a concatenate operand comes from: `is_slice` if it is the result of a
// (static) slice, and `source` an id of the value before that slice (the
// operand itself otherwise). Only equality of ids matters.
struct ConcatOperandSource {
  bool is_slice = false;
  int64_t source = 0;
};

// concatenate along `dimension`. The concat dim is a permutation factor when
// the operands are pieces cut out of other tensors (all are slices, or at
// least one is a slice and all come from the same value), else it needs
// replication. `sources` has one entry per operand, or is empty (no operand
// is a slice). With `conservative` the concat dim gets no common factor.
absl::StatusOr<OpShardingRule> concatenateRule(
    absl::Span<const Shape> operands, const Shape& result, int64_t dimension,
    absl::Span<const ConcatOperandSource> sources = {},
    bool conservative = false);

// slice: dims whose size changes are permutation factors (blocked with
// `conservative`).
absl::StatusOr<OpShardingRule> sliceRule(const Shape& operand,
                                         const Shape& result,
                                         bool conservative = false);

// pad(operand, padding_value) -> result: dims that are padded (size change,
// or any non-zero entry in `low`/`high`/`interior` when given) are
// permutation factors (blocked with `conservative`).
absl::StatusOr<OpShardingRule> padRule(const Shape& operand,
                                       const Shape& result,
                                       bool conservative = false,
                                       absl::Span<const int64_t> low = {},
                                       absl::Span<const int64_t> high = {},
                                       absl::Span<const int64_t> interior = {});

// dynamic_slice(operand, start_indices...) -> result, with one scalar start
// index operand per dimension: sliced dims need replication and are blocked.
absl::StatusOr<OpShardingRule> dynamicSliceRule(const Shape& operand,
                                                const Shape& result);

// dynamic_update_slice(operand, update, start_indices...) -> result, one
// scalar start index per dimension. A sliced dim keeps a pass-through factor
// for operand and result and a separate factor for the update, which needs
// replication unless that dim's start index is a constant
// (`constant_start_indices[d]`; empty means none is).
absl::StatusOr<OpShardingRule> dynamicUpdateSliceRule(
    const Shape& operand, const Shape& update, const Shape& result,
    const std::vector<bool>& constant_start_indices = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_SLICING_RULES_H_
