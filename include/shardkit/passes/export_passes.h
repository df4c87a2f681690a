// Export passes that undo the import's scaffolding after propagation.
//
//   -sdy-sink-data-flow-edges   sinkDataFlowEdges
//   -sdy-close-shardings        closeShardings
#ifndef SHARDKIT_PASSES_EXPORT_PASSES_H_
#define SHARDKIT_PASSES_EXPORT_PASSES_H_

#include "absl/status/status.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

struct SinkDataFlowEdgesOptions {
  // `sink-debug-sharding-origins`: move the edges' `sdy.sharding_origins` to
  // the data-flow op (`sdy.block_arg_sharding_origins`,
  // `sdy.result_sharding_origins`).
  bool sink_debug_sharding_origins = false;
  // `sink-debug-propagation-edge-sharding`: likewise for
  // `sdy.propagation_edges`.
  bool sink_debug_propagation_edge_sharding = false;
};

// The inverse of addDataFlowEdges: the sharding of every
// `sdy.data_flow_edge` goes back to its owner's data-flow op (owners of the
// same op without one get a fully open sharding on the first edge's mesh; an
// op none of whose edges has a sharding is left alone), and the edge op is
// replaced by its input.
absl::Status sinkDataFlowEdges(Module& module,
                               const SinkDataFlowEdgesOptions& options = {});

// Closes every dimension of every sharding in the module and drops replicated
// and unreduced axes (a manual computation keeps those of its manual axes).
absl::Status closeShardings(Module& module);

// Registers the passes above (called from pass_list.cc).
void registerExportPasses();

}  // namespace shardkit

#endif  // SHARDKIT_PASSES_EXPORT_PASSES_H_
