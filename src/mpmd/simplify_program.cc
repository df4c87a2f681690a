// -mpmd-simplify-program: each fragment loses its duplicate results and
// operands, the results that return a block argument unchanged (their users
// take the operand, when its type is the result's), the operands whose
// argument is left unused, and its unused results whose value is computed
// without side effects. Fewer tensors then travel between fragments.
#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/passes.h"
#include "src/mpmd/fragment_signature_edits.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::isPure;

// Marks each of `targets` whose source in `sources` (with the same type)
// came earlier, after moving its uses to the first one.
std::vector<bool> dedup(const std::vector<Value>& sources,
                        const std::vector<Value>& targets) {
  std::vector<bool> erase(targets.size(), false);
  absl::flat_hash_map<std::pair<Value, Type>, Value> first;
  for (size_t i = 0; i < sources.size() && i < targets.size(); ++i) {
    auto [it, inserted] = first.try_emplace(
        std::make_pair(sources[i], targets[i].type()), targets[i]);
    if (inserted) continue;
    targets[i].replaceAllUsesWith(it->second);
    erase[i] = true;
  }
  return erase;
}

// The fragment `op` without the marked results and operands (their
// in/out shardings go with them), and its body without the ops that no
// longer feed a result.
void rebuild(Op op, const std::vector<bool>& erase_results,
             const std::vector<bool>& erase_operands) {
  std::vector<bool> keep_operands(erase_operands.size());
  for (size_t a = 0; a < erase_operands.size(); ++a) {
    keep_operands[a] = !erase_operands[a];
  }
  std::vector<bool> keep_results(erase_results.size());
  for (size_t r = 0; r < erase_results.size(); ++r) {
    keep_results[r] = !erase_results[r];
  }
  mpmd_internal::keepFragmentOperands(op, keep_operands);
  Op simplified = mpmd_internal::keepFragmentResults(op, keep_results);
  mpmd_internal::eraseDeadOps(simplified.region(0).front());
}

void simplifyFragment(Op op) {
  Block body = FragmentOp(op).body();
  Op ret = FragmentOp(op).returnOp();
  if (!body || !ret || ret.numOperands() != op.numResults() ||
      body.numArguments() != op.numOperands()) {
    return;
  }
  std::vector<bool> erase_results = dedup(ret.operands(), op.results());
  std::vector<bool> erase_operands = dedup(op.operands(), body.arguments());
  for (unsigned a = 0; a < body.numArguments(); ++a) {
    bool only_returned = true;
    for (const Value::Use& use : body.argument(a).uses()) {
      unsigned r = use.operandIndex();
      if (use.user() == ret && op.operand(a).type() == op.result(r).type()) {
        op.result(r).replaceAllUsesWith(op.operand(a));
        erase_results[r] = true;
      } else {
        only_returned = false;
      }
    }
    if (only_returned) erase_operands[a] = true;
  }
  for (unsigned r = 0; r < op.numResults(); ++r) {
    if (!op.result(r).useEmpty()) continue;
    Op producer = ret.operand(r).definingOp();
    if (op.numResults() == 1 ? isPure(op) : (!producer || isPure(producer))) {
      erase_results[r] = true;
    }
  }
  if (std::all_of(erase_results.begin(), erase_results.end(),
                  [](bool b) { return b; })) {
    if (isPure(op)) op.erase();
    return;
  }
  bool any = std::find(erase_results.begin(), erase_results.end(), true) !=
                 erase_results.end() ||
             std::find(erase_operands.begin(), erase_operands.end(), true) !=
                 erase_operands.end();
  if (any) rebuild(op, erase_results, erase_operands);
}

}  // namespace

absl::Status simplifyProgram(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> ops;
    ir_internal::collectPostOrder(func.body(), ops);
    for (Op op : ops) {
      if (isa<FragmentOp>(op)) simplifyFragment(op);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
