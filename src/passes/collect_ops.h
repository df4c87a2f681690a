// The ops of a block in the orders the passes visit them, collected up front
// so that a pass may rewrite the IR while it goes through them.
//
// Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_COLLECT_OPS_H_
#define SHARDKIT_SRC_PASSES_COLLECT_OPS_H_

#include <vector>

#include "shardkit/ir/graph.h"

namespace shardkit::passes_internal {

// Appends every op nested in `block`, an op after the ops of its regions
// (MLIR's default walk order). The ops of one block keep their order.
void collectPostOrder(Block block, std::vector<Op>& out);
// Appends every op nested in `block`, an op before the ops of its regions.
void collectPreOrder(Block block, std::vector<Op>& out);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_COLLECT_OPS_H_
