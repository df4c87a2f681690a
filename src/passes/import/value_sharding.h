// Where the import and export passes read and write the sharding of a value
// once data-flow edges exist (seed 001): a target of an edge that has an
// `sdy.data_flow_edge` op is sharded through that op, a region argument of a
// named or manual computation through the op's in_shardings (a manual
// computation's without its manual axes, as its body sees them), anything
// else as `sharding_access.h` says.
//
// Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_IMPORT_VALUE_SHARDING_H_
#define SHARDKIT_SRC_PASSES_IMPORT_VALUE_SHARDING_H_

#include <optional>
#include <vector>

#include "shardkit/core/collective_params.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/computations.h"
#include "shardkit/ir/graph.h"

namespace shardkit::import_internal {

// A ranked tensor with a static shape (what an edge op may wrap; tokens and
// dynamic shapes are skipped).
bool isStaticShapedTensor(Type type);

// The owner of the data-flow edge that `target` belongs to (a while's
// cond/body argument i belongs to the edge of result i; an owner is its own
// owner), or a null Value if `target` is on no edge.
Value edgeOwnerOfTarget(Value target);
// The `sdy.data_flow_edge` op that is the only user of `owner`, or null.
Op dataFlowEdgeUser(Value owner);
// The `sdy.data_flow_edge` op of the edge `target` belongs to, or null.
Op dataFlowEdgeOfTarget(Value target);

// The sharding an edge owner keeps on its data-flow op: `sdy.sharding` of a
// while/case/optimization_barrier result, in/out_shardings of a named
// computation, out_shardings (or in_shardings without manual axes) of a
// manual computation.
std::optional<TensorSharding> ownerSharding(Value owner);
// Sets it; a missing list is filled with fully open shardings.
void setOwnerSharding(Value owner, const TensorSharding& sharding);

// The value that holds the sharding of `value`: the result of its edge's
// `sdy.data_flow_edge`, the value itself if it is an op result or an argument
// of a function or named/manual computation, else null (e.g. a scalar
// argument of a reduction body).
Value shardableValue(Value value);
std::optional<TensorSharding> valueSharding(Value value);
// Returns false if `value` has no shardable value.
bool setValueSharding(Value value, const TensorSharding& sharding);

// Every op nested in `block`, an op after the ops of its regions (MLIR's
// default walk order). The ops of one block keep their order.
void collectPostOrder(Block block, std::vector<Op>& out);
// Every op nested in `block`, an op before the ops of its regions.
void collectPreOrder(Block block, std::vector<Op>& out);

}  // namespace shardkit::import_internal

#endif  // SHARDKIT_SRC_PASSES_IMPORT_VALUE_SHARDING_H_
