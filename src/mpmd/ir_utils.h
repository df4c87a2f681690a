// Internal to the mpmd layer: IR edits the mpmd passes share (inlining a
// region's block, keeping a function's type in line with its body, creating ops
// next to others).
#ifndef SHARDKIT_SRC_MPMD_IR_UTILS_H_
#define SHARDKIT_SRC_MPMD_IR_UTILS_H_

#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// Creates the op of `state` right before / after `anchor`, at its location.
Op createBefore(Op anchor, OperationState& state);
Op createAfter(Op anchor, OperationState& state);
// Creates the op of `state` at the start of `block`.
Op createAtStart(Block block, OperationState& state);

// Moves the ops of `block` except its terminator before `anchor`, its
// arguments replaced by `args`; returns the terminator's operands (mapped
// like the moved ops' uses). The block is left holding its terminator.
std::vector<Value> inlineBlockBefore(Block block, Op anchor,
                                     const std::vector<Value>& args);

// Moves the single block of `from`'s first region into the (empty) first
// region of `to`: a new entry block with the same argument types, the old
// arguments replaced by the new ones, the ops moved over.
void moveBody(Op from, Op to);

// Collects errors a pass reports at ops, and fails at the end with all of
// them (MLIR's emitError then signalPassFailure).
class ErrorCollector {
 public:
  void add(Op op, std::string_view message);
  bool empty() const { return errors_.empty(); }
  // OK when nothing was added.
  absl::Status status() const;

 private:
  std::vector<Diagnostic> errors_;
};

// Sets `func`'s function_type to its body's argument types and its return
// op's operand types.
void updateFunctionType(FuncOp func);

// The values of `op`'s regions defined outside of `op`, in order of first
// use.
std::vector<Value> freeValuesOf(Op op);

// True if `op` has no side effects (MLIR's isPure): a kPure op, a terminator,
// or a fragment or named computation whose nested ops are all such.
bool isPure(Op op);
// Erases the side-effect-free ops of `block` (and of its ops' regions) whose
// results are unused, last first, until none is left.
void eraseDeadOps(Block block);

// True if `a` is before `b` (both in one block).
bool isBeforeInBlock(Op a, Op b);
// The ancestor of `op` (possibly `op`) whose parent block is `block`, or null.
Op ancestorInBlock(Block block, Op op);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_IR_UTILS_H_
