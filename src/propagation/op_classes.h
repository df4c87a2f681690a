// Internal: how the propagation driver treats each op.
#ifndef SHARDKIT_SRC_PROPAGATION_OP_CLASSES_H_
#define SHARDKIT_SRC_PROPAGATION_OP_CLASSES_H_

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/ir/graph.h"
#include "shardkit/propagation/priorities.h"

namespace shardkit {

// True for ops that apply a function element by element (StableHLO's
// Elementwise trait).
bool isElementwiseOp(Op op);

// How `op` takes part in the first op-priority rounds.
OpPriorityKind opPriorityKind(Op op);

// Caches identity rules (one factor per dimension, every tensor mapped the
// same way) by shape and tensor count.
class IdentityRules {
 public:
  const OpShardingRule& get(absl::Span<const int64_t> shape,
                            int64_t num_operands, int64_t num_results);

 private:
  struct Key {
    std::vector<int64_t> shape;
    int64_t operands;
    int64_t results;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.shape, k.operands, k.results);
    }
    friend bool operator==(const Key&, const Key&) = default;
  };
  absl::flat_hash_map<Key, OpShardingRule> rules_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_PROPAGATION_OP_CLASSES_H_
