// -canonicalize: folds the patterns each dialect registers for its ops
// (docs/canonicalize.md), MLIR's greedy way: ops are visited in program
// order, every op a rewrite touches is visited again, unused side-effect-free
// ops are erased, until nothing changes.
#ifndef SHARDKIT_PASSES_CANONICALIZE_H_
#define SHARDKIT_PASSES_CANONICALIZE_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/ir/module.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// What a pattern may do to the IR. Every change goes through it, so the
// driver knows which ops to visit again.
class PatternRewriter {
 public:
  explicit PatternRewriter(Module& module) : module_(module) {}

  Module& module() const { return module_; }

  // Creates the op of `state` right before `anchor`.
  Op createOpBefore(Op anchor, OperationState& state);
  // Makes the users of `op`'s results use `values` instead, then erases `op`.
  void replaceOp(Op op, absl::Span<const Value> values);
  void replaceOp(Op op, Value value) { replaceOp(op, {&value, 1}); }
  // Erases `op`, whose results must be unused.
  void eraseOp(Op op);
  // Reports that `op` was changed in place.
  void notifyChanged(Op op) { revisit(op); }
  // Makes the users of `from` use `to` instead (and visits them again).
  void replaceAllUsesWith(Value from, Value to);

  // The ops to visit again, in the order they were touched.
  std::vector<Op>& touched() { return touched_; }

 private:
  void revisit(Op op) {
    if (op) touched_.push_back(op);
  }
  void revisitUsersAndProducers(Op op);

  Module& module_;
  std::vector<Op> touched_;
};

// True if `op` has no side effects (OpTrait::kPure), no regions and no used
// result: MLIR's greedy drivers erase such ops.
bool isTriviallyDead(Op op);
// Erases every trivially dead op of `module`, and the producers that become
// dead in turn, as MLIR's greedy drivers do after their patterns.
void eraseTriviallyDeadOps(Module& module);

// A rewrite of one op: true if it changed the IR (through `rewriter`).
using RewritePattern = std::function<bool(Op, PatternRewriter&)>;

// The labels of the sdy patterns a pipeline enables on their own, as the
// reference's export pipeline does: folding reshards of reshards, and
// simplifying and fusing collectives.
inline constexpr std::string_view kReshardLabel = "sdy-reshard";
inline constexpr std::string_view kCollectiveLabel = "sdy-collective";

// Adds `pattern` to the patterns of the op named `op_name`, under `label`
// (empty: no label); patterns of one op are tried in registration order.
void registerCanonicalizationPattern(OpName op_name, RewritePattern pattern,
                                     std::string_view label = {});

struct CanonicalizeOptions {
  // Only the patterns with one of these labels run (MLIR's
  // `enable-patterns`); all patterns when empty. Unused side-effect-free ops
  // are erased either way.
  std::vector<std::string> enabled_labels;
};

// Patterns by op name (a pass's own set), tried in order.
using PatternSet =
    std::map<std::string, std::vector<RewritePattern>, std::less<>>;

struct GreedyRewriteConfig {
  // Start from the first op of each body (the canonicalizer) or from the last
  // one (MLIR's default for a pass's own patterns).
  bool top_down = true;
  // MLIR's worklist: an op waits at most once, and the ops a rewrite touched
  // are pushed in the order they were touched (the last one is visited
  // first). Otherwise each touched op is pushed again, the first one on top.
  bool mlir_worklist = false;
};

// Applies `patterns` to the ops in the regions of each top-level op of
// `module`, erasing unused side-effect-free ops on the way, sweep after sweep
// until one changes nothing (at most ten, as MLIR's greedy driver).
void applyPatternsGreedily(Module& module, const PatternSet& patterns,
                           const GreedyRewriteConfig& config = {});
// The same over the ops in the regions of `root` only.
void applyPatternsGreedily(Op root, const PatternSet& patterns,
                           const GreedyRewriteConfig& config = {});

// Runs the registered patterns to a fixed point over every function body.
absl::Status canonicalize(Module& module,
                          const CanonicalizeOptions& options = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_CANONICALIZE_H_
