// -sdy-apply-sharding-constraints.
#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/propagation/debug_info.h"

namespace shardkit {
namespace {

bool isConstraint(Op op) { return isa<sdy::ShardingConstraintOp>(op); }

const TensorSharding* constraintSharding(Op constraint) {
  return constraint.attr("sharding").as<TensorSharding>();
}

// The in_sharding a manual computation gives operand `i`, or null.
const TensorSharding* inSharding(Op manual_computation, unsigned i) {
  const TensorShardingPerValue* list =
      manual_computation.attr("in_shardings").as<TensorShardingPerValue>();
  return list && i < list->items.size() ? &list->items[i] : nullptr;
}

bool isFullyClosed(const TensorSharding& sharding) {
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    if (dim.isOpen()) return false;
  }
  return true;
}

// True if a sharding constraint or manual computation other than `excluded`
// uses `value`.
bool usedByConstraint(Value value, Op excluded = Op()) {
  for (const Value::Use& use : value.uses()) {
    Op user = use.user();
    if (user == excluded) continue;
    if (isConstraint(user) || isa<sdy::ManualComputationOp>(user)) return true;
  }
  return false;
}

// True if a sharding constraint or manual computation uses `value` with a
// sharding other than `sharding`.
bool usedByConstraintWithOtherSharding(Value value,
                                       const TensorSharding& sharding) {
  for (const Value::Use& use : value.uses()) {
    Op user = use.user();
    const TensorSharding* other = nullptr;
    if (isConstraint(user)) {
      other = constraintSharding(user);
    } else if (isa<sdy::ManualComputationOp>(user)) {
      other = inSharding(user, use.operandIndex());
    } else {
      continue;
    }
    if (!other || !(*other == sharding)) return true;
  }
  return false;
}

bool shouldApply(Value input, const TensorSharding& sharding) {
  // No shardable value: e.g. a scalar argument of a reduction body.
  if (!shardableValue(input)) return false;
  if (getSharding(input)) return false;
  // Only a fully closed constraint dictates its input's sharding (parity with
  // GSPMD).
  if (!isFullyClosed(sharding)) return false;
  return !usedByConstraintWithOtherSharding(input, sharding);
}

// Moves `op` right after the definition of `value` (first in the block for a
// block argument).
void moveAfterValue(Op op, Value value) {
  if (Op def = value.definingOp()) {
    op.moveAfter(def);
    return;
  }
  Block block = value.ownerBlock();
  if (!(block.front() == op)) op.moveBefore(block.front());
}

// Applies `sharding` (of a constraint on `input`) to `input` if shouldApply;
// returns whether it set the sharding of `input`. On a data-flow edge the
// sharding is not set on the edge, which would constrain every target of the
// edge; instead the constraint returned by `constraint_after_input` takes over
// all uses of `input`.
bool applyConstraint(Value input, const TensorSharding& sharding,
                     const std::function<Op()>& constraint_after_input) {
  if (!shouldApply(input, sharding)) return false;
  Op def = input.definingOp();
  bool on_edge =
      isa<sdy::DataFlowEdgeOp>(def) || dataFlowEdgeOp(edgeOwnerOfTarget(input));
  if (!on_edge) {
    setSharding(input, sharding);
    return true;
  }
  Op constraint = constraint_after_input();
  input.replaceUsesWithIf(constraint.result(0),
                          [constraint](const Value::Use& use) {
                            return !(use.user() == constraint);
                          });
  // Unreduced axes do not propagate, so they go onto the edge directly.
  if (!sharding.unreduced_axes.empty()) {
    TensorSharding updated = getSharding(input).value_or(
        TensorSharding::fullyOpen(sharding.mesh, input.type().rank()));
    updated.unreduced_axes = sharding.unreduced_axes;
    updated.unreduced_kind = sharding.unreduced_kind;
    setSharding(input, updated);
  }
  return false;
}

// The last constraint of the chain that starts at `head`, if the chain
// dictates the sharding of later uses of its input: `head` is the first
// constraint, its input has no sharding and no other constraint or manual
// computation user, every constraint but the last has exactly one use, the
// chain has at least two constraints and the last one is not used by a
// constraint or manual computation.
Op chainTail(Op head) {
  Value input = head.operand(0);
  if (isConstraint(input.definingOp())) return Op();
  if (getSharding(input)) return Op();
  if (usedByConstraint(input, head)) return Op();
  Op tail = head;
  while (tail.result(0).hasOneUse()) {
    Op user = tail.result(0).uses().front().user();
    if (!isConstraint(user)) break;
    tail = user;
  }
  if (tail == head || usedByConstraint(tail.result(0))) return Op();
  return tail;
}

// The position of each op in its block, computed per block on demand; a block
// is renumbered after an op is moved into it or created in it.
class BlockOrder {
 public:
  bool isBefore(Op a, Op b) { return position(a) < position(b); }
  void invalidate(Block block) { numbered_.erase(block); }

 private:
  size_t position(Op op) {
    Block block = op.parentBlock();
    auto it = positions_.find(op);
    if (numbered_.insert(block).second || it == positions_.end()) {
      size_t i = 0;
      for (Op o : block) positions_[o] = i++;
      it = positions_.find(op);
    }
    return it->second;
  }

  absl::flat_hash_set<Block> numbered_;
  absl::flat_hash_map<Op, size_t> positions_;
};

class ConstraintApplier {
 public:
  ConstraintApplier(Module& module,
                    const ApplyShardingConstraintsOptions& options)
      : module_(module), record_edges_(options.debug_propagation_edges) {
    if (record_edges_) next_step_ = lastRecordedPropagationStep(module) + 1;
  }

  void processConstraint(Op constraint) {
    if (Op tail = chainTail(constraint)) forwardChain(constraint, tail);
    const TensorSharding* sharding = constraintSharding(constraint);
    if (!sharding) return;
    Value input = constraint.operand(0);
    bool applied = applyConstraint(input, *sharding, [&] {
      moveAfterValue(constraint, input);
      order_.invalidate(constraint.parentBlock());
      return constraint;
    });
    if (applied) recordStep(constraint, *sharding);
  }

  // The in_shardings of a manual computation are constraints on its operands;
  // since the computation cannot move, a new constraint is created when
  // needed.
  void processManualComputation(Op computation) {
    for (unsigned i = 0; i < computation.numOperands(); ++i) {
      const TensorSharding* sharding = inSharding(computation, i);
      if (!sharding) continue;
      Value operand = computation.operand(i);
      TensorSharding copy = *sharding;
      bool applied = applyConstraint(operand, copy, [&] {
        return createConstraintAfter(operand, copy, computation.location());
      });
      Block body = sdy::ManualComputationOp(computation).body();
      if (applied && body && i < body.numArguments()) {
        recordStep(dataFlowEdgeOp(body.argument(i)), copy);
      }
    }
  }

 private:
  // A copy of `sharding` from result-0 of `op` (a constraint, or the edge of
  // a manual computation's argument) to its operand-0, as one propagation
  // step.
  void recordStep(Op op, const TensorSharding& sharding) {
    if (!record_edges_ || !op) return;
    PropagationStep step{next_step_++, {}};
    for (const DimensionSharding& dim : sharding.dim_shardings) {
      for (const AxisRef& axis : dim.axes) {
        step.axes.push_back(AxisPropagation{
            axis, EdgeValueRef::result(0), {EdgeValueRef::operand(0)}});
      }
    }
    std::sort(step.axes.begin(), step.axes.end(),
              [](const AxisPropagation& a, const AxisPropagation& b) {
                return a.axis < b.axis;
              });
    if (!step.axes.empty()) appendPropagationStep(op, std::move(step));
  }

  // Makes the uses of the chain's input that come after `tail` in its block
  // (other than function returns) use the chain's result.
  void forwardChain(Op head, Op tail) {
    Block block = tail.parentBlock();
    head.operand(0).replaceUsesWithIf(
        tail.result(0), [&](const Value::Use& use) {
          Op user = use.user();
          return !(user == head) && !isa<func::ReturnOp>(user) &&
                 user.parentBlock() == block && order_.isBefore(tail, user);
        });
  }

  Op createConstraintAfter(Value value, const TensorSharding& sharding,
                           uint32_t location) {
    OperationState state(sdy::ShardingConstraintOp::opName());
    state.operands = {value};
    state.result_types = {value.type()};
    state.addAttr("sharding", Attribute::of(sharding));
    state.location = location;
    Op constraint = module_.createOp(state);
    if (Op def = value.definingOp()) {
      def.parentBlock().insertAfter(def, constraint);
    } else {
      value.ownerBlock().pushFront(constraint);
    }
    order_.invalidate(constraint.parentBlock());
    return constraint;
  }

  Module& module_;
  BlockOrder order_;
  bool record_edges_ = false;
  int64_t next_step_ = 0;
};

}  // namespace

absl::Status applyShardingConstraints(
    Module& module, const ApplyShardingConstraintsOptions& options) {
  if (!module.mayHaveOpsNamed(sdy::ShardingConstraintOp::opName()) &&
      !module.mayHaveOpsNamed(sdy::ManualComputationOp::opName())) {
    return absl::OkStatus();
  }
  std::vector<Op> ops;
  ir_internal::collectPostOrder(module.body(), ops);
  ConstraintApplier applier(module, options);
  for (Op op : ops) {
    if (op.isErased()) continue;
    if (isConstraint(op)) {
      applier.processConstraint(op);
    } else if (isa<sdy::ManualComputationOp>(op)) {
      applier.processManualComputation(op);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
