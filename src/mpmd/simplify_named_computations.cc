// -mpmd-simplify-named-computations, on each distributed function:
//
// 1. In a named computation, an optimization barrier's operand that is a
//    block argument and whose result only feeds the return goes around the
//    barrier (`arg -> barrier -> return` becomes `arg -> return`).
// 2. Each named computation loses its duplicate results, its duplicate
//    operands, the results that return an argument unchanged (their users use
//    the operand), the operands left unused, and unused results whose value
//    is computed without side effects; one left without results is erased
//    when it has no side effects.
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/canonicalize.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::isPure;

bool bypassOptimizationBarrier(Op op, PatternRewriter& rewriter) {
  if (!isa<NamedComputationOp>(op.parentOp())) return false;
  std::vector<unsigned> kept;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Op user = op.result(i).soleUser();
    if (op.operand(i).isBlockArgument() && isa<ReturnOp>(user)) {
      rewriter.replaceAllUsesWith(op.result(i), op.operand(i));
    } else {
      kept.push_back(i);
    }
  }
  if (kept.size() == op.numOperands()) return false;
  OperationState state(op.opName());
  for (unsigned i : kept) {
    state.operands.push_back(op.operand(i));
    state.result_types.push_back(op.result(i).type());
  }
  state.discardable_attrs = op.discardableAttrs();
  Op barrier = rewriter.createOpBefore(op, state);
  for (unsigned j = 0; j < kept.size(); ++j)
    rewriter.replaceAllUsesWith(op.result(kept[j]), barrier.result(j));
  rewriter.eraseOp(op);
  return true;
}

// Marks the later of each pair (source, target type) duplicate: its target
// is replaced by the first one's.
std::vector<bool> dedup(const std::vector<Value>& sources,
                        const std::vector<Value>& targets,
                        PatternRewriter& rewriter) {
  std::vector<bool> erase(sources.size(), false);
  absl::flat_hash_map<std::pair<Value, Type>, Value> first;
  for (size_t i = 0; i < sources.size(); ++i) {
    auto [it, inserted] = first.try_emplace(
        std::make_pair(sources[i], targets[i].type()), targets[i]);
    if (inserted) continue;
    rewriter.replaceAllUsesWith(targets[i], it->second);
    erase[i] = true;
  }
  return erase;
}

bool simplifyNamedComputation(Op op, PatternRewriter& rewriter) {
  Block body = NamedComputationOp(op).body();
  Op ret = NamedComputationOp(op).returnOp();
  if (!body || !ret || ret.numOperands() != op.numResults() ||
      body.numArguments() != op.numOperands()) {
    return false;
  }
  std::vector<bool> erase_results =
      dedup(ret.operands(), op.results(), rewriter);
  std::vector<bool> erase_operands =
      dedup(op.operands(), body.arguments(), rewriter);
  // Results returning an argument unchanged; operands whose argument only
  // feeds such results (or nothing).
  for (unsigned a = 0; a < body.numArguments(); ++a) {
    bool only_returned = true;
    for (const Value::Use& use : body.argument(a).uses()) {
      unsigned r = use.operandIndex();
      if (use.user() == ret && op.operand(a).type() == op.result(r).type()) {
        rewriter.replaceAllUsesWith(op.result(r), op.operand(a));
        erase_results[r] = true;
      } else {
        only_returned = false;
      }
    }
    if (only_returned) erase_operands[a] = true;
  }
  // Unused results whose value comes from outside or from a side-effect-free
  // op; the only result only if the whole op can go.
  for (unsigned r = 0; r < op.numResults(); ++r) {
    if (!op.result(r).useEmpty()) continue;
    Op producer = ret.operand(r).definingOp();
    if (op.numResults() == 1 ? isPure(op) : (!producer || isPure(producer)))
      erase_results[r] = true;
  }
  bool all = std::all_of(erase_results.begin(), erase_results.end(),
                         [](bool b) { return b; });
  if (all) {
    if (!isPure(op)) return false;
    rewriter.eraseOp(op);
    return true;
  }
  bool any = false;
  for (bool b : erase_results) any = any || b;
  for (bool b : erase_operands) any = any || b;
  if (!any) return false;
  for (unsigned r = op.numResults(); r-- > 0;) {
    if (erase_results[r]) ret.eraseOperand(r);
  }
  for (unsigned a = body.numArguments(); a-- > 0;) {
    if (erase_operands[a]) body.eraseArgument(a);
  }
  OperationState state(op.opName());
  for (unsigned a = 0; a < op.numOperands(); ++a) {
    if (!erase_operands[a]) state.operands.push_back(op.operand(a));
  }
  for (unsigned r = 0; r < op.numResults(); ++r) {
    if (!erase_results[r]) state.result_types.push_back(op.result(r).type());
  }
  state.addAttr("origin", op.attr("origin"));
  state.num_regions = 1;
  Op simplified = rewriter.createOpBefore(op, state);
  mpmd_internal::moveBody(op, simplified);
  mpmd_internal::eraseDeadOps(simplified.region(0).front());
  unsigned next = 0;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    if (!erase_results[r])
      rewriter.replaceAllUsesWith(op.result(r), simplified.result(next++));
  }
  rewriter.eraseOp(op);
  return true;
}

}  // namespace

absl::Status simplifyNamedComputations(Module& module) {
  PatternSet barriers;
  barriers[std::string(stablehlo::OptimizationBarrierOp::kName)] = {
      bypassOptimizationBarrier};
  PatternSet computations;
  computations[std::string(NamedComputationOp::kName)] = {
      simplifyNamedComputation};
  GreedyRewriteConfig config;
  config.top_down = false;
  config.mlir_worklist = true;
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (!isMpmdFunction(func) && !isSpmdFunction(func)) continue;
    applyPatternsGreedily(op, barriers, config);
    applyPatternsGreedily(op, computations, config);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
