// -canonicalize: the greedy driver over the patterns dialects register.
#include "shardkit/passes/canonicalize.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/pass.h"
#include "src/ir/op_name_map.h"
#include "src/passes/canonicalize/patterns.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

// MLIR's canonicalizer stops after this many sweeps without a fixed point.
constexpr int kMaxSweeps = 10;

struct LabeledPattern {
  RewritePattern pattern;
  std::string label;
};

std::map<std::string, std::vector<LabeledPattern>, std::less<>>& patterns() {
  static auto* table =
      new std::map<std::string, std::vector<LabeledPattern>, std::less<>>();
  return *table;
}

bool isEnabled(const LabeledPattern& pattern,
               const CanonicalizeOptions& options) {
  if (options.enabled_labels.empty()) return true;
  for (const std::string& label : options.enabled_labels) {
    if (label == pattern.label) return true;
  }
  return false;
}

void registerBuiltinPatterns() {
  static const bool registered = [] {
    canonicalize_internal::registerSdyPatterns();
    return true;
  }();
  (void)registered;
}

// Appends `op` and the ops nested in it: in program order with each op
// before the ops in its regions (pre-order), or after them (post-order).
void appendOps(Op op, bool pre_order, std::vector<Op>& out) {
  if (pre_order) out.push_back(op);
  forEachBlock(op, [&](Block block) {
    for (Op nested : block) appendOps(nested, pre_order, out);
  });
  if (!pre_order) out.push_back(op);
}

// The ops waiting to be visited: a stack, popped from the back. With
// `unique`, an op already waiting is not pushed again (MLIR's worklist).
class Worklist {
 public:
  explicit Worklist(bool unique) : unique_(unique) {}
  void push(Op op) {
    if (unique_ && !pending_.insert(op).second) return;
    ops_.push_back(op);
  }
  bool empty() const { return ops_.empty(); }
  Op pop() {
    Op op = ops_.back();
    ops_.pop_back();
    if (unique_) pending_.erase(op);
    return op;
  }

 private:
  bool unique_;
  std::vector<Op> ops_;
  absl::flat_hash_set<Op> pending_;
};

// One sweep over the ops of `root`'s regions; true if anything changed.
bool sweep(Op root, const PatternSet& table, const GreedyRewriteConfig& config,
           PatternRewriter& rewriter) {
  std::vector<Op> order;
  forEachBlock(root, [&](Block block) {
    for (Op op : block) appendOps(op, config.top_down, order);
  });
  // Top-down: the first op on top; bottom-up: the last op on top.
  Worklist worklist(config.mlir_worklist);
  if (config.top_down) {
    for (auto it = order.rbegin(); it != order.rend(); ++it) worklist.push(*it);
  } else {
    for (Op op : order) worklist.push(op);
  }
  // The table's patterns by op name: an array access instead of a string
  // map's compares for every op.
  ir_internal::OpNameMap<const std::vector<RewritePattern>*> by_name;
  auto patternsOf = [&](Op op) {
    return by_name.get(op.opName(),
                       [&](OpName name) -> const std::vector<RewritePattern>* {
                         auto found = table.find(name.str());
                         return found == table.end() ? nullptr : &found->second;
                       });
  };
  bool changed = false;
  while (!worklist.empty()) {
    Op op = worklist.pop();
    if (!op || op.isErased()) continue;
    rewriter.touched().clear();
    if (isTriviallyDead(op)) {
      rewriter.eraseOp(op);
      changed = true;
    } else {
      const std::vector<RewritePattern>* patterns = patternsOf(op);
      if (patterns == nullptr) continue;
      bool applied = false;
      for (const RewritePattern& pattern : *patterns) {
        if (pattern(op, rewriter)) {
          applied = true;
          break;
        }
      }
      if (!applied) continue;
      changed = true;
    }
    std::vector<Op>& touched = rewriter.touched();
    if (config.mlir_worklist) {
      for (Op t : touched) worklist.push(t);
    } else {
      for (auto t = touched.rbegin(); t != touched.rend(); ++t) {
        worklist.push(*t);
      }
    }
  }
  return changed;
}

// True if a sweep over `root`'s regions may change something: an op that a
// pattern of `table` is for may be there (mayHaveOpsNamed), or an op there is
// trivially dead. Otherwise a sweep would visit every op and change none, so
// the walk here, which allocates nothing, stands for it.
bool maySweepChange(Op root, const PatternSet& table) {
  Module& module = *root.module();
  for (const auto& [name, set] : table) {
    if (set.empty()) continue;
    OpName op_name = OpName::registered(name);
    if (!op_name || module.mayHaveOpsNamed(op_name)) return true;
  }
  bool dead = false;
  auto check = [&](Op op) { dead = dead || isTriviallyDead(op); };
  forEachBlock(root, [&](Block block) { Module::walkBlock(block, check); });
  return dead;
}

}  // namespace

bool isTriviallyDead(Op op) {
  if (!op.hasTrait(OpTrait::kPure) || op.numRegions() != 0) return false;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (!op.result(i).useEmpty()) return false;
  }
  return true;
}

void eraseTriviallyDeadOps(Module& module) {
  std::vector<Op> order;
  for (Op op : module.body()) appendOps(op, /*pre_order=*/true, order);
  // Erasing an op can make its operands' producers dead: visit them next.
  std::vector<Op> worklist(order.rbegin(), order.rend());
  while (!worklist.empty()) {
    Op op = worklist.back();
    worklist.pop_back();
    if (!op || op.isErased() || !isTriviallyDead(op)) continue;
    std::vector<Op> producers;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      producers.push_back(op.operand(i).definingOp());
    }
    op.erase();
    worklist.insert(worklist.end(), producers.rbegin(), producers.rend());
  }
}

Op PatternRewriter::createOpBefore(Op anchor, OperationState& state) {
  if (state.location == kNoSourceLocation) state.location = anchor.location();
  Op op = module_.createOp(state);
  anchor.parentBlock().insertBefore(anchor, op);
  revisit(op);
  return op;
}

void PatternRewriter::revisitUsersAndProducers(Op op) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    revisit(op.operand(i).definingOp());
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    for (const Value::Use& use : op.result(i).uses()) revisit(use.user());
  }
}

void PatternRewriter::replaceOp(Op op, absl::Span<const Value> values) {
  revisitUsersAndProducers(op);
  for (unsigned i = 0; i < op.numResults() && i < values.size(); ++i) {
    op.result(i).replaceAllUsesWith(values[i]);
    revisit(values[i].definingOp());
  }
  op.erase();
}

void PatternRewriter::replaceAllUsesWith(Value from, Value to) {
  for (const Value::Use& use : from.uses()) revisit(use.user());
  from.replaceAllUsesWith(to);
}

void PatternRewriter::eraseOp(Op op) {
  revisitUsersAndProducers(op);
  op.erase();
}

void registerCanonicalizationPattern(OpName op_name, RewritePattern pattern,
                                     std::string_view label) {
  patterns()[std::string(op_name.str())].push_back(
      LabeledPattern{std::move(pattern), std::string(label)});
}

void applyPatternsGreedily(Op root, const PatternSet& table,
                           const GreedyRewriteConfig& config) {
  if (root.numRegions() == 0 || !maySweepChange(root, table)) return;
  PatternRewriter rewriter(*root.module());
  for (int i = 0; i < kMaxSweeps && sweep(root, table, config, rewriter); ++i) {
  }
}

void applyPatternsGreedily(Module& module, const PatternSet& table,
                           const GreedyRewriteConfig& config) {
  for (Op op : module.body()) applyPatternsGreedily(op, table, config);
}

absl::Status canonicalize(Module& module, const CanonicalizeOptions& options) {
  registerBuiltinPatterns();
  // The registered patterns the options enable, in registration order.
  PatternSet enabled;
  for (const auto& [name, labeled] : patterns()) {
    std::vector<RewritePattern>& set = enabled[name];
    for (const LabeledPattern& pattern : labeled) {
      if (isEnabled(pattern, options)) set.push_back(pattern.pattern);
    }
  }
  applyPatternsGreedily(module, enabled);
  return absl::OkStatus();
}

void registerCanonicalizePass() {
  registerPass(PassInfo{
      "canonicalize",
      "Folds what each op's canonicalization patterns fold and erases unused "
      "side-effect-free ops, to a fixed point",
      {{"enable-patterns",
        "only the patterns with these labels, e.g. {sdy-collective} "
        "(default all)"}},
      [](Module& module, const PassOptions& pass) {
        CanonicalizeOptions options;
        std::string labels = pass.get("enable-patterns");
        if (!labels.empty() && labels.front() == '{' && labels.back() == '}') {
          labels = labels.substr(1, labels.size() - 2);
        }
        for (absl::string_view label : absl::StrSplit(labels, ',')) {
          label = absl::StripAsciiWhitespace(label);
          if (!label.empty()) {
            options.enabled_labels.emplace_back(label.data(), label.size());
          }
        }
        return canonicalize(module, options);
      }});
}

}  // namespace shardkit
