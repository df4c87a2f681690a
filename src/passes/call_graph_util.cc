#include "src/passes/call_graph_util.h"

#include "shardkit/support/status_macros.h"

namespace shardkit::passes_internal {

absl::StatusOr<CallGraph> acyclicCallGraph(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(module));
  SK_RETURN_IF_ERROR(calls.checkAcyclic());
  return calls;
}

}  // namespace shardkit::passes_internal
