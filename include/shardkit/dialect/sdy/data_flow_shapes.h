// Data-flow ops of other dialects (an mpmd fragment or loop) take part in
// the data-flow edges of sharding_site.h by the shape of their edges,
// registered with the op kind (which also carries OpTrait::kDataFlowEdges):
//   kComputation: as a named computation: body argument i owns an edge
//     (source: operand i; sharding: `in_shardings` entry i) and result i
//     (source: the body's return operand i; sharding: the op's
//     OpInfo::result_sharding_attr list).
//   kLoop: as a while with one region: result i owns an edge (sources:
//     operand i and the body's return operand i; other target: body
//     argument i; sharding: `sdy.sharding` entry i).
#ifndef SHARDKIT_DIALECT_SDY_DATA_FLOW_SHAPES_H_
#define SHARDKIT_DIALECT_SDY_DATA_FLOW_SHAPES_H_

#include <string_view>

#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class DataFlowShape { kNone, kComputation, kLoop };

// Registers (or replaces) the shape of the edges of the registered op kind
// `op_name`. Thread-safe; for dialect registration.
void registerDataFlowShape(std::string_view op_name, DataFlowShape shape);

// The registered shape of `op`'s edges; kNone for the sdy and stablehlo
// data-flow ops (sharding_site.h knows them) and every other op.
DataFlowShape registeredDataFlowShape(Op op);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_SDY_DATA_FLOW_SHAPES_H_
