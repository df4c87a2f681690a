// The call graph the call passes that follow calls need. Internal to the
// passes layer.
#ifndef SHARDKIT_SRC_PASSES_CALL_GRAPH_UTIL_H_
#define SHARDKIT_SRC_PASSES_CALL_GRAPH_UTIL_H_

#include "absl/status/statusor.h"
#include "shardkit/dialect/func/call_graph.h"

namespace shardkit::passes_internal {

// The call graph of `module`; an error (at the call) if a call names no
// function or the graph has a cycle.
absl::StatusOr<CallGraph> acyclicCallGraph(Module& module);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_CALL_GRAPH_UTIL_H_
