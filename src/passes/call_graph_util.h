// The call graph the call passes that follow calls need. Internal to the
// passes layer.
#ifndef SHARDKIT_SRC_PASSES_CALL_GRAPH_UTIL_H_
#define SHARDKIT_SRC_PASSES_CALL_GRAPH_UTIL_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/dialect/func/call_graph.h"

namespace shardkit::passes_internal {

// The call graph of `module`; an error (at the call) if a call names no
// function or the graph has a cycle.
absl::StatusOr<CallGraph> acyclicCallGraph(Module& module);

// What inlining every call of the acyclic `calls` would build, checked
// before anything is copied: a call DAG of a few kilobytes describes an
// exponential number of ops. An error (at the entry function, naming
// `pass`) when a function nobody calls would hold more than
// kInlinedOpBudget ops, or, with `nested` (calls become ops holding their
// callee's body), regions nested deeper than the reader reads back
// (kMaxNestingDepth, support/budgets.h).
absl::Status checkInlinedSize(const CallGraph& calls, std::string_view pass,
                              bool nested);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_CALL_GRAPH_UTIL_H_
