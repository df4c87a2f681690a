// The registration of the call passes (call_passes.h).
#include "shardkit/passes/call_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/pass_list.h"

namespace shardkit {

void registerCallPasses() {
  registerPass(optionlessPass(
      "sdy-add-func-data-flow-edges",
      "Inserts an sdy.func_data_flow_edge for every argument of a function "
      "other than the main one and every call result.",
      addFuncDataFlowEdges));
  registerPass(optionlessPass(
      "sdy-sink-func-data-flow-edges",
      "Moves the sharding of each sdy.func_data_flow_edge to its input and "
      "replaces the edge by its input.",
      sinkFuncDataFlowEdges));
  registerPass(PassInfo{
      "sdy-import-func-calls",
      "Replaces every call by an sdy.named_computation holding (a copy of) "
      "the callee's body; the callees are erased.",
      {{"add-data-flow-edges-on-named-computations",
        "give the named computations made their sdy.data_flow_edge ops "
        "(default true)",
        PassOptionKind::kBool}},
      [](Module& module, const PassOptions& options) -> absl::Status {
        ImportFuncCallsOptions import;
        SK_ASSIGN_OR_RETURN(
            import.add_data_flow_edges_on_named_computations,
            options.getBool("add-data-flow-edges-on-named-computations", true));
        return importFuncCalls(module, import);
      }});
  registerPass(optionlessPass(
      "sdy-flatten-call-graph",
      "Gives every call of a function but the first a copy of the function "
      "(and of its callees).",
      flattenCallGraph));
  registerPass(optionlessPass(
      "sdy-pre-order-funcs",
      "Orders the functions so that each comes after all its callers.",
      preOrderFuncs));
  registerPass(optionlessPass(
      "sdy-propagate-sharding-from-func-to-call",
      "Gives calls without result shardings their callee's result shardings.",
      propagateShardingFromFuncToCall));
  registerPass(optionlessPass(
      "sdy-propagate-to-func-results",
      "Sets the result shardings of every function but the main one to those "
      "of the values it returns.",
      propagateToFuncResults));
  registerPass(optionlessPass(
      "sdy-insert-func-call-reshards",
      "Reshards call results whose sharding differs from their callee's "
      "result sharding.",
      insertFuncCallReshards));
}

}  // namespace shardkit
