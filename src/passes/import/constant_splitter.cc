// -sdy-constant-splitter and -sdy-constant-or-scalar-splitter.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// An elementwise computation (not one of sdy's identity ops, which carry
// shardings and stay where they are).
bool isElementwise(Op op) {
  return op.hasTrait(OpTrait::kElementwise) &&
         !isa<sdy::ShardingConstraintOp, sdy::ReshardOp,
              sdy::PropagationBarrierOp>(op);
}

bool isScalar(Value value) {
  return value.type().isRankedTensor() && value.type().rank() == 0;
}

bool isShardingGroup(Op op) { return isa<sdy::ShardingGroupOp>(op); }

// Replaces `op` (a stablehlo.constant) by an sdy.constant with the same
// attributes, so later passes do not fold identical constants together.
void convertConstant(Module& module, Op op) {
  OperationState state(sdy::ConstantOp::opName());
  state.result_types = op.resultTypes();
  state.inherent_attrs = op.inherentAttrs();
  state.discardable_attrs = op.discardableAttrs();
  state.location = op.location();
  module.replaceOp(op, state);
}

class Splitter {
 public:
  Splitter(Module& module, ConstantSplitMode mode)
      : module_(module), mode_(mode) {}

  // Processes the ops of `block` (and of their regions) in order. Copies are
  // inserted before the ops they copy, which come before the op being
  // processed: the walk of the block goes on from it undisturbed.
  void processBlock(Block block, std::vector<Op>& scope) {
    for (Op op : block) {
      if (isa<sdy::NamedComputationOp>(op) && splitsScalars()) {
        // A named computation is its own scope: its constants are split and
        // cleaned up inside it before the computation is handled as a user.
        std::vector<Op> inner;
        processRegions(op, inner);
        eraseUnused(inner.rbegin(), inner.rend());
        processOp(op, scope);
        continue;
      }
      if (splitsScalars()) {  // pre-order
        processOp(op, scope);
        processRegions(op, scope);
      } else {  // post-order
        processRegions(op, scope);
        processOp(op, scope);
      }
    }
  }

  // Erases the originals nothing uses any more (all users were given copies),
  // together with their sharding groups.
  void finish(std::vector<Op>& scope) {
    if (!splitsScalars()) return;
    eraseUnused(scalar_expansions_.begin(), scalar_expansions_.end());
    eraseUnused(scope.rbegin(), scope.rend());
  }

 private:
  bool splitsScalars() const {
    return mode_ == ConstantSplitMode::kConstantsOrScalars;
  }

  void processRegions(Op op, std::vector<Op>& scope) {
    if (op.numRegions() == 0) return;
    forEachBlock(op, [&](Block block) { processBlock(block, scope); });
  }

  // A constant expression or a scalar expansion: what a user gets a copy of.
  bool isSplittable(Op op) const { return kindOf(op) != kNeither; }

  // A constant or iota, or a pure constant-preserving op all of whose
  // operands are constant expressions (`constant_operands`).
  bool isConstantExpression(Op op, bool constant_operands) const {
    if (isa<sdy::ConstantOp, stablehlo::IotaOp>(op)) return true;
    if (!constant_operands || op.numRegions() != 0) return false;
    return isa<stablehlo::BroadcastInDimOp, stablehlo::SliceOp>(op) ||
           isElementwise(op) ||
           (splitsScalars() && isa<stablehlo::ReshapeOp>(op));
  }

  // A broadcast of a scalar that is not a constant expression.
  bool isScalarExpansion(Op op) const {
    return splitsScalars() && isa<stablehlo::BroadcastInDimOp>(op) &&
           op.numOperands() == 1 && isScalar(op.operand(0));
  }

  void processOp(Op op, std::vector<Op>& scope) {
    if (isShardingGroup(op)) return;
    // One look at the operands' kinds: most ops use no constant expression
    // and no scalar expansion, and then only their own kind is left to tell.
    bool constant_operands = true;
    bool splittable_operand = false;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      Op def = op.operand(i).definingOp();
      Kind kind = def ? kindOf(def) : kNeither;
      constant_operands = constant_operands && kind == kConstant;
      splittable_operand = splittable_operand || kind != kNeither;
    }
    if (isConstantExpression(op, constant_operands)) {
      mark(op, kConstant);
      scope.push_back(op);
      return;
    }
    if (isScalarExpansion(op)) {
      mark(op, kScalarExpansion);
      scalar_expansions_.push_back(op);
      return;
    }
    // `op` is a user outside every constant sub-computation: give it its own
    // copy of each sub-computation it uses.
    if (!splittable_operand) return;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      Value operand = op.operand(i);
      Op def = operand.definingOp();
      if (!def || !isSplittable(def)) continue;
      if (!splitsScalars() && operand.hasOneUse()) continue;
      if (splitsScalars() && isScalar(operand)) continue;
      ValueMap mapping;
      op.setOperand(i, cloneSubComputation(operand, mapping));
    }
  }

  // Clones the sub-computation defining `value` (each clone right before its
  // original, scalars shared when splitting scalars) and returns the copy of
  // `value`.
  Value cloneSubComputation(Value value, ValueMap& mapping) {
    if (auto it = mapping.find(value); it != mapping.end()) return it->second;
    if (splitsScalars() && isScalar(value)) return value;
    Op original = value.definingOp();
    for (Value operand : original.operands()) {
      if (operand.definingOp()) cloneSubComputation(operand, mapping);
    }
    // Operands cloned above are renamed to their copies, shared scalars kept.
    Op clone = cloneOp(original, mapping);
    original.parentBlock().insertBefore(original, clone);
    cloneShardingGroups(original, clone);
    return mapping.at(value);
  }

  // Gives the clone the sharding groups of the original.
  void cloneShardingGroups(Op original, Op clone) {
    for (Op group : shardingGroupsOf(original)) {
      OperationState state(group.opName());
      state.operands = {clone.result(group.operand(0).index())};
      state.inherent_attrs = group.inherentAttrs();
      state.discardable_attrs = group.discardableAttrs();
      state.location = group.location();
      original.parentBlock().insertBefore(original, module_.createOp(state));
    }
  }

  // The sharding group ops on the results of `op`, found once (a constant
  // may have very many uses; its group ops never change while splitting).
  const std::vector<Op>& shardingGroupsOf(Op op) {
    auto [it, inserted] = groups_.try_emplace(op);
    if (inserted) {
      for (Value result : op.results()) {
        for (const Value::Use& use : result.uses()) {
          if (isShardingGroup(use.user())) it->second.push_back(use.user());
        }
      }
    }
    return it->second;
  }

  // Erases each op of [begin, end) whose results are only used by sharding
  // groups (erasing those too).
  template <typename It>
  void eraseUnused(It begin, It end) {
    for (It it = begin; it != end; ++it) {
      Op op = *it;
      if (op.isErased()) continue;
      bool only_groups = true;
      for (Value result : op.results()) {
        for (const Value::Use& use : result.uses()) {
          only_groups = only_groups && isShardingGroup(use.user());
        }
      }
      if (!only_groups) continue;
      for (Value result : op.results()) {
        for (const Value::Use& use : result.uses()) use.user().erase();
      }
      op.erase();
    }
  }

  Module& module_;
  ConstantSplitMode mode_;
  // What each op is, by op id (dense: most ops are neither, and every
  // operand of every op is asked about).
  enum Kind : uint8_t { kNeither, kConstant, kScalarExpansion };
  Kind kindOf(Op op) const {
    return op.id() < kinds_.size() ? kinds_[op.id()] : kNeither;
  }
  void mark(Op op, Kind kind) {
    if (op.id() >= kinds_.size()) kinds_.resize(op.id() + 1, kNeither);
    kinds_[op.id()] = kind;
  }
  std::vector<Kind> kinds_;
  std::vector<Op> scalar_expansions_;
  absl::flat_hash_map<Op, std::vector<Op>> groups_;
};

}  // namespace

absl::Status splitConstants(Module& module, ConstantSplitMode mode) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    for (Op op : ops) {
      if (isa<stablehlo::ConstantOp>(op)) convertConstant(module, op);
    }
    Splitter splitter(module, mode);
    std::vector<Op> scope;
    splitter.processBlock(func.body(), scope);
    splitter.finish(scope);
  }
  return absl::OkStatus();
}

}  // namespace shardkit
