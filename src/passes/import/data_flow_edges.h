// Adding data-flow edge ops, shared by -sdy-add-data-flow-edges and the call
// passes that create data-flow ops (-sdy-import-func-calls). Internal to the
// passes layer.
#ifndef SHARDKIT_SRC_PASSES_IMPORT_DATA_FLOW_EDGES_H_
#define SHARDKIT_SRC_PASSES_IMPORT_DATA_FLOW_EDGES_H_

#include "shardkit/ir/graph.h"

namespace shardkit::passes_internal {

// What an edge op may wrap: a ranked tensor, or a type holding one (a mesh
// tensor), with a static shape (tokens and dynamic shapes are skipped).
bool isStaticShapedTensor(Type type);

// Wraps every static-shaped edge owner of the data-flow op `op` that has no
// edge yet in an `sdy.data_flow_edge` carrying the owner's sharding: the
// edges of body arguments first in the body, those of results right after
// `op`, each in owner order.
void addDataFlowEdgesOf(Module& module, Op op);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_IMPORT_DATA_FLOW_EDGES_H_
