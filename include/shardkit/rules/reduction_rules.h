// Rules of reducing ops: reduce, reduce_window and select_and_scatter. Each
// takes the shapes of the (variadic) inputs; the scalar init values are
// added as rank-0 operands in the op's order.
#ifndef SHARDKIT_RULES_REDUCTION_RULES_H_
#define SHARDKIT_RULES_REDUCTION_RULES_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The window padding, which decides (with the size change) whether a window
// dim moves data: empty (no padding) or one (low, high) pair per dim.
struct WindowPadding {
  std::vector<std::pair<int64_t, int64_t>> padding;  // (low, high) per dim
};

// reduce(inputs..., inits...) -> results...: reduced dims are reduction
// factors of the inputs only; the others map input dim to result dim.
absl::StatusOr<OpShardingRule> reduceRule(absl::Span<const Shape> inputs,
                                          absl::Span<const Shape> results,
                                          absl::Span<const int64_t> dimensions);

// reduce_window(inputs..., inits...) -> results...: one factor per dim of
// the result size; a dim whose size changes or that is padded is a
// permutation factor (blocked with `conservative`).
absl::StatusOr<OpShardingRule> reduceWindowRule(
    absl::Span<const Shape> inputs, absl::Span<const Shape> results,
    const WindowPadding& window = {}, bool conservative = false);

// select_and_scatter(operand, source, init) -> result: a dim whose source
// size differs from the operand's (or that is padded) gets a
// need-replication factor for the source and a permutation factor for the
// operand and result (both blocked with `conservative`); other dims are
// pointwise.
absl::StatusOr<OpShardingRule> selectAndScatterRule(
    const Shape& operand, const Shape& source, const Shape& result,
    const WindowPadding& window = {}, bool conservative = false);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_REDUCTION_RULES_H_
