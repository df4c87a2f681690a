// The sharding rule of a reshape: both shapes are factored into a common
// sequence of factors, major to minor, so that each dimension is the product
// of its (compound) factors, e.g. 8x4 -> 2x16 gives `([ij, k])->([i, jk])`.
//
// The algorithm walks both shapes in lockstep. Size-1 dimensions get their
// own factor. While the factors added so far cover the same prefix of both
// shapes, the gcd of the two pending sizes becomes a common factor; when the
// gcd is 1 (e.g. 3x2 -> 2x3) the two sides diverge and get separate factors
// until their prefixes line up again.
#ifndef SHARDKIT_RULES_RESHAPE_H_
#define SHARDKIT_RULES_RESHAPE_H_

#include <optional>

#include "absl/status/statusor.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The rule of `reshape(in) -> out`, or nullopt when the tensors have no
// elements (a size-0 dimension: nothing to propagate). Errors: a dynamic or
// negative dimension, element counts that differ or overflow.
absl::StatusOr<std::optional<OpShardingRule>> reshapeRule(const Shape& in,
                                                          const Shape& out);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_RESHAPE_H_
