// -sdy-insert-func-call-reshards.
#include <optional>
#include <vector>

#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/export/reshard_builder.h"

namespace shardkit {
namespace {

// Makes result `i` of `call`, sharded `at_call` before the pass, sharded like
// the callee's result `i`, resharding it to what the call's users expect if
// that distributes the tensor differently.
void matchCalleeResult(Module& module, Op call, FuncOp callee, unsigned i,
                       const std::optional<TensorSharding>& at_call) {
  Value result = call.result(i);
  const TensorSharding* in_callee = findFuncResultSharding(callee, i);
  if (!at_call) {
    // Nothing to keep for the users: the call just says what it gets.
    if (in_callee) setEdgeOwnerSharding(result, *in_callee);
    return;
  }
  // A callee result without a sharding is replicated.
  TensorSharding callee_sharding =
      in_callee ? *in_callee
                : TensorSharding::fullyClosed(at_call->mesh, at_call->rank());
  // Alike but for open/closed dimensions is no reshard.
  if (passes_internal::isEquivalent(&callee_sharding, &*at_call)) return;
  setEdgeOwnerSharding(result, callee_sharding);
  passes_internal::ReshardBuilder builder(module);
  Value reshard = builder.reshard(result, *at_call, call.location(),
                                  passes_internal::AfterValue{result});
  passes_internal::replaceUsesExcept(result, reshard, reshard.definingOp());
}

}  // namespace

absl::Status insertFuncCallReshards(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(module));
  for (FuncOp func : calls.functions()) {
    for (Op call : calls.callsIn(func)) {
      FuncOp callee = calls.calleeOf(call);
      // Read first: giving one result a sharding gives the others open ones.
      std::vector<std::optional<TensorSharding>> at_call;
      for (Value result : call.results()) {
        at_call.push_back(getEdgeOwnerSharding(result));
      }
      for (unsigned i = 0; i < call.numResults(); ++i) {
        if (!call.result(i).type().isRankedTensor()) continue;
        matchCalleeResult(module, call, callee, i, at_call[i]);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
