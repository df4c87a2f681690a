// -mpmd-call-inline: every mpmd.call is replaced by a copy of its callee's
// body; the fragments and fragment calls of the copy (at any depth) get the
// call's attributes other than the callee, e.g. its call_counter. func.call
// and mpmd.fragment_call stay; -symbol-dce erases callees left unused.
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "src/mpmd/common_passes.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

void copyCallAttrs(Op call, Op target) {
  for (const AttrDict* dict : {&call.inherentAttrs(), &call.discardableAttrs()})
    for (const NamedAttribute& entry : dict->entries())
      if (entry.name != "callee") target.setAttr(entry.name, entry.value);
}

void inlineCall(Op call, FuncOp callee) {
  Block body = callee.body();
  ValueMap map;
  for (unsigned i = 0; i < body.numArguments() && i < call.numOperands(); ++i)
    map[body.argument(i)] = call.operand(i);
  Op ret = body.back();
  for (Op op : body) {
    if (op == ret) break;
    Op copy = cloneOp(op, map);
    call.parentBlock().insertBefore(call, copy);
    auto visit = [&](Op nested) {
      if (isa<FragmentOp, FragmentCallOp>(nested)) copyCallAttrs(call, nested);
    };
    Module::walkOp(copy, visit);
  }
  for (unsigned i = 0; i < call.numResults(); ++i)
    call.result(i).replaceAllUsesWith(mapped(map, ret.operand(i)));
  call.erase();
}

void collectCalls(Block block, std::vector<Op>& calls) {
  for (Op op : block) {
    if (isa<CallOp>(op)) calls.push_back(op);
    forEachBlock(op, [&](Block nested) { collectCalls(nested, calls); });
  }
}

}  // namespace

absl::Status callInline(Module& module) {
  std::vector<Op> calls;
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (func.body()) collectCalls(func.body(), calls);
  }
  for (Op call : calls) {
    FuncOp callee = calleeOf(call);
    if (!callee || !callee.body()) {
      return locatedError(call, "cannot inline a call without a callee body");
    }
    inlineCall(call, callee);
  }
  return absl::OkStatus();
}

absl::Status fromUnrollToCallCounter(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    auto visit = [](Op op) {
      if (!isa<CallOp>(op)) return;
      // A copy: setting an attribute of `op` may move its dictionary.
      // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
      Attribute counter = op.attr("unroll_counter");
      if (!counter) return;
      op.setAttr(kCallCounterAttr, counter);
      op.removeAttr("unroll_counter");
    };
    Module::walkBlock(func.body(), visit);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
