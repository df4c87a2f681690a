// The two priority levels of the strategy hierarchy of docs/propagation.md, as
// pure functions a driver combines with the per-op step:
//
//   for each user priority round r (ascending, starting at 0):
//     for each op priority round k in [0, kNumOpPriorityRounds):
//       propagate every op to a fixed point, restricting
//         - dimensions by `priority_round = r` (PropagateOpOptions), and
//         - factors by opPriorityDirection(k, kind, rule, factor);
//   finally dropPriorities() on every sharding.
//
// User priorities: in round r, a dimension whose priority (default 0) is
// above r is closed and empty, and its axes are replicated, so it neither
// takes nor gives axes; from round r on it takes part with its own axes.
//
// Op priorities: pass-through ops (elementwise, reshape, transpose, data-flow
// edges) propagate first, then only pass-through factors of any op, then
// everything.
#ifndef SHARDKIT_FACTOR_PROPAGATION_PRIORITIES_H_
#define SHARDKIT_FACTOR_PROPAGATION_PRIORITIES_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// How an op takes part in the first op-priority round.
enum class OpPriorityKind {
  // Elementwise, reshape, transpose and data-flow edges: both directions.
  kPassThrough,
  // dynamic_slice and dynamic_update_slice: forward only.
  kForwardPassThrough,
  // broadcast_in_dim: not in the first round, and only backward in the
  // second.
  kBroadcast,
  // Everything else: not in the first round.
  kOther,
};

inline constexpr int64_t kNumOpPriorityRounds = 3;

// The directions allowed by either `a` or `b`.
inline PropagationDirection unite(PropagationDirection a,
                                  PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<int>(a) |
                                           static_cast<int>(b));
}

// The direction in which `factor` of an op may propagate in op-priority round
// `round` (0-based; rounds accumulate: round k allows all of rounds 0..k).
// Round 1 allows the pass-through factors of `rule` (all factors if `rule` is
// null, i.e. an identity rule); round 2 allows every factor.
PropagationDirection opPriorityDirection(int64_t round, OpPriorityKind kind,
                                         const OpShardingRule* rule,
                                         int64_t factor);

// The user-priority rounds of `shardings` (null = missing): 0 and every
// priority of a dimension, ascending, without duplicates.
std::vector<int64_t> userPriorityRounds(
    absl::Span<const TensorSharding* const> shardings);

// Removes the priority of every dimension; true if there was any.
bool dropPriorities(TensorSharding& sharding);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_PRIORITIES_H_
