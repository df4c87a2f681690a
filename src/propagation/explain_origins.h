// Internal to the propagation layer: the part of --explain-op that reads the
// debug records propagation leaves (docs/propagation.md, "Why a tensor got
// its sharding"), and the table layout explain.cc shares with it.
#ifndef SHARDKIT_SRC_PROPAGATION_EXPLAIN_ORIGINS_H_
#define SHARDKIT_SRC_PROPAGATION_EXPLAIN_ORIGINS_H_

#include <string>
#include <vector>

#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/factor_propagation/sharding_projection.h"
#include "shardkit/ir/graph.h"

namespace shardkit::explain_internal {

// A markdown table: the first row is the header, then a rule, then the rest;
// columns padded to their widest cell.
std::string markdownTable(const std::vector<std::vector<std::string>>& rows);

// The debug-sharding-origins record of `value`'s sharding (axis text ->
// origin), wherever propagation or -sdy-sink-data-flow-edges put it, or null.
const std::vector<NamedAttribute>* originRecord(Value value);

// Why each tensor of the op has its axes: per factor, each axis of `before`
// with the user sharding it came from (`"a" <- input: 0`), then the steps
// recorded on `op` itself. `values` are the tensors of `before` (operands
// first), `labels` their row names. A hint on how to get the records when
// the module has none for these tensors.
std::string originsSection(Op op, const ShardingProjection& before,
                           const OpShardingRule& rule, const Mesh& mesh,
                           const std::vector<std::string>& labels,
                           const std::vector<Value>& values);

}  // namespace shardkit::explain_internal

#endif  // SHARDKIT_SRC_PROPAGATION_EXPLAIN_ORIGINS_H_
