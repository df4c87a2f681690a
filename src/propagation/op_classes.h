// Internal to the propagation layer: how the driver (and --explain-op) treat
// each op — which rule it propagates along, whether it is elementwise, and
// how it takes part in the op-priority rounds.
#ifndef SHARDKIT_SRC_PROPAGATION_OP_CLASSES_H_
#define SHARDKIT_SRC_PROPAGATION_OP_CLASSES_H_

#include <cstdint>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "absl/status/statusor.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/factor_propagation/priorities.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// True for ops with the kElementwise trait (op_name.h) and for
// `stablehlo.bitcast_convert` between equal shapes.
bool isElementwiseOp(Op op);

// How `op` takes part in the first op-priority rounds: elementwise ops,
// host-offload custom calls (`MoveToDevice`, `MoveToHost`) and ops with the
// kPriority* traits (op_name.h) as their trait says, everything else waits
// for the later rounds.
OpPriorityKind opPriorityKind(Op op);

// Whether some operand of `op` that isn't a scalar has more than one use
// (counting each use by `op`): the first op-priority round leaves such ops
// for later.
bool hasSharedOperand(Op op);

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
  absl::node_hash_map<Key, OpShardingRule> rules_;
};

// What propagation does with an op.
enum class OpRole : uint8_t {
  kSkip,     // nothing: no rule (calls, constants, unknown ops, terminators)
  kRule,     // operands and results along the op's sharding rule
  kBarrier,  // sdy.propagation_barrier: identity, in its allowed direction
  kEdge,     // sdy.data_flow_edge: sources and targets of the edge, identity
  // sdy.func_data_flow_edge: a function argument and the call operands, or a
  // call result and the callee's returned value, identity
  kFuncEdge,
};

struct OpRoleInfo {
  OpRole role = OpRole::kSkip;
  // The rule of a kRule op: the op's own `sdy.sharding_rule` attribute (a
  // custom rule, or one an earlier pass attached), else the registry's.
  std::optional<OpShardingRule> rule;
  // The rule came from the registry (not from an attribute on the op), so
  // it is attached only if the sharding rules are kept.
  bool from_registry = false;
};

// Classifies `op`; `conservative` is passed to the registry. Fails
// (InvalidArgument at the op) if the registry rejects the op.
absl::StatusOr<OpRoleInfo> classifyOp(Op op, bool conservative);

}  // namespace shardkit

#endif  // SHARDKIT_SRC_PROPAGATION_OP_CLASSES_H_
