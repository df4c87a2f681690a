// -mpmd-sink-negligible-ops-into-call-op: when every call of an mpmd callee
// passes the same value as an argument, and that value comes from an op with
// no operands and one result (a constant, say: negligible to recompute), the
// op is cloned at the start of the callee and the argument is dropped from
// the callee and its calls. Ops of the callers left unused are erased.
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/module.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Every mpmd.call of `callee` in the mpmd functions, used or not.
std::vector<Op> callSitesOf(FuncOp callee) {
  std::vector<Op> calls;
  for (FuncOp func : mpmdFunctions(*callee->module())) {
    if (!func.body()) continue;
    auto visit = [&](Op op) {
      if (isa<CallOp>(op) && calleeOf(op).op() == callee.op())
        calls.push_back(op);
    };
    Module::walkBlock(func.body(), visit);
  }
  return calls;
}

// The value every call passes as argument `i`, or null if they differ.
Value sharedOperand(const std::vector<Op>& calls, unsigned i) {
  Value shared = calls.front().operand(i);
  for (Op call : calls)
    if (!(call.operand(i) == shared)) return Value();
  return shared;
}

void sinkIntoCallee(FuncOp callee) {
  std::vector<Op> calls = callSitesOf(callee);
  Block body = callee.body();
  if (calls.empty() || !body || body.empty()) return;
  Op anchor = body.front();
  std::vector<bool> erase(body.numArguments(), false);
  bool any = false;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value shared = sharedOperand(calls, i);
    Op producer = shared ? shared.definingOp() : Op();
    if (!producer || producer.numOperands() != 0 || producer.numResults() != 1)
      continue;
    ValueMap map;
    Op copy = cloneOp(producer, map);
    body.insertBefore(anchor, copy);
    body.argument(i).replaceAllUsesWith(copy.result(0));
    erase[i] = any = true;
  }
  if (!any) return;
  absl::flat_hash_set<Block> callers;
  for (unsigned i = body.numArguments(); i-- > 0;) {
    if (!erase[i]) continue;
    body.eraseArgument(i);
    for (Op call : calls) call.eraseOperand(i);
  }
  updateFunctionType(callee);
  for (Op call : calls) callers.insert(enclosingFunc(call).body());
  for (Block caller : callers) eraseDeadOps(caller);
}

}  // namespace

absl::Status sinkNegligibleOpsIntoCallOp(Module& module) {
  for (FuncOp func : mpmdFunctions(module))
    if (func.body()) sinkIntoCallee(func);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
