// -mpmd-rule-based-merge{rules remove-control-dependencies}: each rule names
// source fragments (by FragmentInfo, fragment_info.h) to merge into one
// fragment on their mesh that gets the rule's target info. All the sources of
// a rule present in a function are merged, in dependency order, into one
// fragment placed where the first of them was. A fragment named by two rules
// is an error. The body is then put back in dependency order if merging
// broke it; a cycle is an error.
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/fragment_info.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// The rule naming `fragment` as a source, or null.
const FragmentMergeRule* ruleOf(const std::vector<FragmentMergeRule>& rules,
                                Op fragment) {
  FragmentInfo info = fragmentInfoOf(fragment);
  for (const FragmentMergeRule& rule : rules)
    for (const FragmentInfo& source : rule.sources)
      if (matches(source, info)) return &rule;
  return nullptr;
}

// True if `op` reads a value that an op of `pending` defines.
bool dependsOnAny(Op op, const absl::flat_hash_set<Op>& pending, Block block) {
  std::vector<Value> read = op.operands();
  for (Value v : freeValuesOf(op)) read.push_back(v);
  for (Value v : read) {
    Op def = v.definingOp();
    Op top = def ? ancestorInBlock(block, def) : Op();
    if (top && !(top == op) && pending.contains(top)) return true;
  }
  return false;
}

// `ops` (of `block`) ordered so that each comes after what it reads among
// them, keeping the given order where it can; empty on a cycle.
std::vector<Op> dependencyOrder(std::vector<Op> ops, Block block) {
  std::vector<Op> sorted;
  absl::flat_hash_set<Op> pending(ops.begin(), ops.end());
  while (!ops.empty()) {
    auto ready = std::find_if(ops.begin(), ops.end(), [&](Op op) {
      return !dependsOnAny(op, pending, block);
    });
    if (ready == ops.end()) return {};
    sorted.push_back(*ready);
    pending.erase(*ready);
    ops.erase(ready);
  }
  return sorted;
}

bool mergeByRule(Op fragment, PatternRewriter& rewriter,
                 const std::vector<FragmentMergeRule>& rules) {
  const FragmentMergeRule* rule = ruleOf(rules, fragment);
  if (!rule) return false;
  std::string_view mesh = FragmentOp(fragment).meshName();
  Block block = fragment.parentBlock();
  std::vector<Op> group;
  for (Op op : block) {
    if (op == fragment || !isa<FragmentOp>(op)) continue;
    if (FragmentOp(op).meshName() == mesh && ruleOf(rules, op) == rule)
      group.push_back(op);
  }
  if (group.empty()) return false;
  group.push_back(fragment);
  std::vector<Op> sorted = dependencyOrder(group, block);
  if (sorted.empty()) return false;
  Op dest = sorted[0].nextInBlock();
  Op merged = sorted[0];
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (dest == sorted[i]) dest = dest.nextInBlock();
    merged = mergeFragmentsKeepingAttrs(merged, sorted[i]);
  }
  setFragmentInfo(merged, rule->target);
  merged.moveBefore(dest);
  rewriter.notifyChanged(merged);
  return true;
}

// Reorders `block` so that every op comes after what it reads (the
// terminator stays last); false on a cycle.
bool sortBlock(Block block) {
  std::vector<Op> ops = block.ops();
  if (ops.empty()) return true;
  Op terminator = ops.back();
  ops.pop_back();
  std::vector<Op> sorted = dependencyOrder(ops, block);
  if (sorted.size() != ops.size()) return false;
  for (Op op : sorted) op.moveBefore(terminator);
  return true;
}

absl::Status checkRules(const std::vector<FragmentMergeRule>& rules) {
  for (size_t i = 0; i < rules.size(); ++i)
    for (const FragmentInfo& a : rules[i].sources)
      for (size_t j = 0; j < rules.size(); ++j)
        for (const FragmentInfo& b : rules[j].sources)
          if (&a != &b && a == b)
            return absl::InvalidArgumentError(
                "a fragment is a source of more than one merge rule");
  return absl::OkStatus();
}

}  // namespace

absl::Status ruleBasedMerge(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(std::vector<FragmentMergeRule> rules,
                      parseFragmentMergeRules(options.get("rules")));
  SK_RETURN_IF_ERROR(checkRules(rules));
  SK_RETURN_IF_ERROR(
      options.getBool("remove-control-dependencies", false).status());
  PatternSet patterns;
  patterns[std::string(FragmentOp::kName)] = {
      [&](Op op, PatternRewriter& rewriter) {
        return mergeByRule(op, rewriter, rules);
      }};
  GreedyRewriteConfig config;
  config.top_down = false;
  config.mlir_worklist = true;
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    applyPatternsGreedily(func.op(), patterns, config);
    if (!sortBlock(func.body())) {
      return locatedError(func.op(),
                          "Cycle detected in the program, not all fragments "
                          "could be properly merged.");
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
