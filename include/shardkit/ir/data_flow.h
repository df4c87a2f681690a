// Data-flow edges (seed 001): ops whose results (and region arguments) are
// copies of other values rather than computations — stablehlo.while, case,
// optimization_barrier, sdy.named_computation, sdy.manual_computation. Each
// edge links a set of sources to a set of targets that must be sharded alike;
// one target, the edge owner, holds the edge's sharding.
//
//   while:  owner result i; sources: operand i, body return operand i;
//           targets: result i, cond and body argument i.
//   case:   owner result i; sources: every branch's return operand i.
//   optimization_barrier: owner result i; source: operand i.
//   named/manual computation: owner body argument i (source: operand i) and
//           owner result i (source: body return operand i).
//
// After `-sdy-add-data-flow-edges`, an `sdy.data_flow_edge` op wraps every
// owner and carries the edge's sharding.
#ifndef SHARDKIT_IR_DATA_FLOW_H_
#define SHARDKIT_IR_DATA_FLOW_H_

#include <optional>
#include <vector>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// True if `op` has data-flow edges.
bool isDataFlowOp(Op op);

// The edge owners of a data-flow op: its region arguments that own edges
// (named/manual computation) and its results.
std::vector<Value> dataFlowEdgeOwners(Op op);

// If `value` owns an edge, the edge's sources and its targets other than the
// owner.
struct DataFlowEdge {
  Op op;  // the data-flow op
  Value owner;
  std::vector<Value> sources;
  std::vector<Value> non_owner_targets;
};
std::optional<DataFlowEdge> dataFlowEdgeOf(Value owner);

// If operand `operand_index` of `user` is a source of a data-flow edge, that
// edge's owner (e.g. for operand 1 of a while, its result 1; for operand 0 of
// a while body's terminator, the while's result 0).
std::optional<Value> edgeOwnerOfSource(Op user, unsigned operand_index);

// The `sdy.data_flow_edge` op whose input is `owner`, if any.
Op dataFlowEdgeOpOf(Value owner);

// The sharding an edge owner keeps on its data-flow op (the op's
// `sdy.sharding` entry, or in_shardings/out_shardings of a named or manual
// computation).
std::optional<TensorSharding> getEdgeOwnerSharding(Value owner);
void setEdgeOwnerSharding(Value owner, const TensorSharding& sharding);

}  // namespace shardkit

#endif  // SHARDKIT_IR_DATA_FLOW_H_
