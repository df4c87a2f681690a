// -inline: MLIR's inliner for the calls shardkit knows. A `func.call` to a
// function with a one-block body is replaced by a copy of that body; mpmd
// calls are never inlined here (`mpmd.fragment_call` never: a fragment runs
// as its own program; `mpmd.call` keeps its call counters and is inlined by
// the mpmd passes that own it). As MLIR's inliner does, the module is then
// canonicalized and private functions that lost their last call are erased.
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

void collectCalls(Block block, std::vector<Op>& calls) {
  for (Op op : block) {
    if (isa<func::CallOp>(op)) calls.push_back(op);
    forEachBlock(op, [&](Block nested) { collectCalls(nested, calls); });
  }
}

// The callee `call` may be replaced with, or null: a function with one block
// ending in its return, not the calling function, and no `no_inline`.
FuncOp inlinableCallee(Op call) {
  FuncOp callee = calleeOf(call);
  if (!callee || callee.isDeclaration() || callee->hasAttr("no_inline") ||
      call.hasAttr("no_inline") || callee->region(0).numBlocks() != 1 ||
      call.isNestedIn(callee) || !callee.returnOp()) {
    return FuncOp();
  }
  return callee;
}

// Replaces `call` with a copy of `callee`'s body.
void inlineCall(Op call, FuncOp callee) {
  ValueMap map;
  Block body = callee.body();
  for (unsigned i = 0; i < body.numArguments() && i < call.numOperands(); ++i)
    map[body.argument(i)] = call.operand(i);
  Op ret = callee.returnOp();
  for (Op op : body) {
    if (op == ret) break;
    Op copy = cloneOp(op, map);
    call.parentBlock().insertBefore(call, copy);
  }
  for (unsigned i = 0; i < call.numResults() && i < ret.numOperands(); ++i)
    call.result(i).replaceAllUsesWith(mapped(map, ret.operand(i)));
  call.erase();
}

bool isReferenced(Module& module, std::string_view name) {
  bool found = false;
  module.walk([&](Op op) {
    for (const AttrDict* dict : {&op.inherentAttrs(), &op.discardableAttrs()}) {
      for (const NamedAttribute& entry : *dict) {
        const std::string* ref = entry.value.asSymbolRef();
        if (ref && *ref == name) found = true;
      }
    }
  });
  return found;
}

}  // namespace

absl::Status inlineCalls(Module& module) {
  absl::flat_hash_set<Op> inlined_callees;
  // Each round inlines the calls present at its start; calls that inlining
  // brought in are inlined in the next round (a bounded walk of the call
  // graph, so recursion stops).
  constexpr int kMaxRounds = 16;
  for (int round = 0; round < kMaxRounds; ++round) {
    std::vector<Op> calls;
    for (Op func : module.functions()) {
      if (Block body = FuncOp(func).body()) collectCalls(body, calls);
    }
    bool changed = false;
    for (Op call : calls) {
      if (FuncOp callee = inlinableCallee(call)) {
        inlineCall(call, callee);
        inlined_callees.insert(callee);
        changed = true;
      }
    }
    if (!changed) break;
  }
  SK_RETURN_IF_ERROR(canonicalize(module));
  for (Op op : module.body().ops()) {
    auto func = dynCast<FuncOp>(op);
    if (func && inlined_callees.contains(op) &&
        func.visibility() == "private" && !isReferenced(module, func.name())) {
      op.erase();
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
