// -sdy-pre-order-funcs and -sdy-propagate-sharding-from-func-to-call: the
// small call-graph preparations before propagation.
#include <optional>

#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/call_graph_util.h"

namespace shardkit {

absl::Status preOrderFuncs(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls,
                      passes_internal::acyclicCallGraph(module));
  for (FuncOp func : calls.callersFirst()) module.body().pushBack(func);
  return absl::OkStatus();
}

absl::Status propagateShardingFromFuncToCall(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(module));
  MeshTable meshes = module.meshTable();
  for (FuncOp func : calls.functions()) {
    for (Op call : calls.callsIn(func)) {
      if (call.hasAttr(kShardingAttr)) continue;
      if (std::optional<TensorShardingPerValue> shardings =
              funcResultShardings(calls.calleeOf(call), meshes)) {
        call.setAttr(kShardingAttr, Attribute::of(*std::move(shardings)));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
