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
// Op priorities, five rounds (each allows what the earlier ones did):
//   0. pass-through ops (elementwise, reshape, transpose, data-flow edges,
//      host-offload custom calls; dynamic_slice and dynamic_update_slice
//      forward only) none of whose non-scalar operands has other uses: a
//      value used several times would get each use's sharding pushed onto
//      it, or push one onto the others;
//   1. the same ops whatever the uses;
//   2. the pass-through factors of every op, broadcast_in_dim backward only;
//   3. every factor, broadcast_in_dim still backward only;
//   4. everything.
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

// How an op takes part in the op-priority rounds.
enum class OpPriorityKind {
  // Elementwise, reshape, transpose, data-flow edges and host-offload custom
  // calls: both directions from the first rounds.
  kPassThrough,
  // dynamic_slice and dynamic_update_slice: forward only in the first rounds.
  kForwardPassThrough,
  // broadcast_in_dim: not in the first rounds, then backward only until the
  // last.
  kBroadcast,
  // Everything else: not in the first rounds.
  kOther,
  kLast = kOther,  // for enum tables (support/enum_table.h)
};

inline constexpr int64_t kNumOpPriorityRounds = 5;

// The directions allowed by either `a` or `b`.
inline PropagationDirection unite(PropagationDirection a,
                                  PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<int>(a) |
                                           static_cast<int>(b));
}

// The direction in which `factor` of an op may propagate in op-priority round
// `round` (0-based; rounds accumulate: round k allows all of rounds 0..k).
// `shared_operand`: some non-scalar operand of the op has other uses (or is
// used twice by it). Round 2 allows the pass-through factors of `rule` (all
// factors if `rule` is null, i.e. an identity rule).
PropagationDirection opPriorityDirection(int64_t round, OpPriorityKind kind,
                                         const OpShardingRule* rule,
                                         int64_t factor,
                                         bool shared_operand = false);

// The user-priority rounds of `shardings` (null = missing): 0 and every
// priority of a dimension, ascending, without duplicates.
std::vector<int64_t> userPriorityRounds(
    absl::Span<const TensorSharding* const> shardings);

// Removes the priority of every dimension; true if there was any.
bool dropPriorities(TensorSharding& sharding);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_PRIORITIES_H_
