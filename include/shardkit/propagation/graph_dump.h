// The sharded graph of a module, for people (Graphviz DOT) and for tools
// (JSON). shardkit-opt writes them with --dump-graph=dot|json after its
// passes; docs/graph-dump.md has the JSON schema.
//
// DOT: one cluster per function; a node per function argument and per op,
// labelled with its results' names, types and shardings; an edge per use.
// Collectives are filled salmon, reshards (sdy.reshard and other
// reshard-like ops) gold, sharding constraints light blue.
#ifndef SHARDKIT_PROPAGATION_GRAPH_DUMP_H_
#define SHARDKIT_PROPAGATION_GRAPH_DUMP_H_

#include <string>

#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

std::string dumpGraphDot(Module& module);

// `{"schema": "shardkit.graph/1", "meshes": [...], "functions": [...]}`;
// each op with its operands, results (name, type, sharding), its sharding
// rule and where it is.
std::string dumpGraphJson(Module& module);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PROPAGATION_GRAPH_DUMP_H_
