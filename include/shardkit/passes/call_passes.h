// The passes of function calls (docs/propagation.md, "Function calls"), each
// registered under the flag name sdy_opt gives it. Two ways to shard a module
// whose functions call each other:
//
//   - conservative (the default): every call site gets its own copy of its
//     callee (-sdy-flatten-call-graph), each copy is inlined as an
//     `sdy.named_computation` (-sdy-import-func-calls), propagation sees one
//     flat function, and afterwards the computations become functions again,
//     deduplicated where their shardings agree (-sdy-export-named-computations,
//     -sdy-unflatten-call-graph);
//   - `dedup-functions-fully`: functions stay as they are, and
//     `sdy.func_data_flow_edge` ops (-sdy-add-func-data-flow-edges) let
//     propagation flow between a function and all of its calls; afterwards
//     the edges go (-sdy-sink-func-data-flow-edges) and a call whose result
//     is sharded unlike its callee's result is resharded
//     (-sdy-insert-func-call-reshards).
//
//   -sdy-add-func-data-flow-edges               addFuncDataFlowEdges
//   -sdy-sink-func-data-flow-edges              sinkFuncDataFlowEdges
//   -sdy-import-func-calls                      importFuncCalls
//   -sdy-flatten-call-graph                     flattenCallGraph
//   -sdy-pre-order-funcs                        preOrderFuncs
//   -sdy-propagate-sharding-from-func-to-call   propagateShardingFromFuncToCall
//   -sdy-propagate-to-func-results              propagateToFuncResults
//   -sdy-insert-func-call-reshards              insertFuncCallReshards
//   -symbol-dce                                 symbolDce (symbol_dce.h)
//
// (-sdy-unflatten-call-graph and -sdy-export-named-computations are in
// export_passes.h.) Every pass that follows calls fails, at the call, on a
// call to a missing function or a recursive call graph.
#ifndef SHARDKIT_PASSES_CALL_PASSES_H_
#define SHARDKIT_PASSES_CALL_PASSES_H_

#include "absl/status/status.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// Wraps every static-shaped argument of every function but the entry ones
// (CallGraph::isEntry: the main function) and every static-shaped call result
// in an `sdy.func_data_flow_edge` carrying its sharding; the edges of a
// function's arguments go first in its body, those of a call's results right
// after it.
absl::Status addFuncDataFlowEdges(Module& module);

// The inverse: each `sdy.func_data_flow_edge` gives its sharding to its input
// (an input sharded while the edge isn't becomes fully open) and is replaced
// by it.
absl::Status sinkFuncDataFlowEdges(Module& module);

struct ImportFuncCallsOptions {
  // `add-data-flow-edges-on-named-computations`: give each named computation
  // made its `sdy.data_flow_edge` ops.
  bool add_data_flow_edges_on_named_computations = true;
};

// Replaces every call by an `sdy.named_computation` named after the callee's
// original function (`sdy.original_func_name`, else its name) with the
// callee's body: moved for the first call of a function, copied for the
// others. The computation takes the callee's argument shardings as
// in_shardings (funcArgShardings), the call's `sdy.sharding` as
// out_shardings, and the call's other discardable attributes. The callees
// are erased.
absl::Status importFuncCalls(Module& module,
                             const ImportFuncCallsOptions& options = {});

// Gives every call but the first of each function a copy of its callee (with
// copies of the callees of the callee, recursively), so that each function
// has at most one call. A copy is named like MLIR's symbol table names a
// clash (`foo_0`, `foo_1`, ... from one counter) and carries
// `sdy.original_func_name`. Calls are visited depth first from the functions
// nobody calls, each callee right after its first call.
absl::Status flattenCallGraph(Module& module);

// Moves the functions to the end of the module, each after all its callers
// (CallGraph::callersFirst).
absl::Status preOrderFuncs(Module& module);

// Gives each call without an `sdy.sharding` its callee's result shardings
// (funcResultShardings), if it has any.
absl::Status propagateShardingFromFuncToCall(Module& module);

// Sets the result shardings of every function but the entry ones
// (CallGraph::isEntry: the main function) to the shardings of the values it
// returns (removing those of unsharded values). Functions whose body doesn't
// end with `func.return` are left alone.
absl::Status propagateToFuncResults(Module& module);

// Where a call's result is sharded unlike its callee's result (the tensor is
// distributed differently; a callee result without a sharding is fully
// replicated), the call takes the callee's sharding and an `sdy.reshard`
// right after the call turns it into the call's. A call result without a
// sharding just takes the callee's.
absl::Status insertFuncCallReshards(Module& module);

}  // namespace shardkit

#endif  // SHARDKIT_PASSES_CALL_PASSES_H_
