// The ops of a block in the orders the passes visit them, collected up front
// so that a pass may rewrite the IR while it goes through them.
//
// Internal to shardkit (the passes and propagation use it).
#ifndef SHARDKIT_IR_WALK_H_
#define SHARDKIT_IR_WALK_H_

#include <vector>

#include "shardkit/ir/graph.h"
#include "shardkit/ir/module.h"

namespace shardkit::ir_internal {

// Appends every op nested in `block`, an op after the ops of its regions
// (MLIR's default walk order). The ops of one block keep their order.
void collectPostOrder(Block block, std::vector<Op>& out);
// Appends every op nested in `block`, an op before the ops of its regions.
void collectPreOrder(Block block, std::vector<Op>& out);
// Every op in the bodies of the module's defined functions (declarations
// have none), in pre-order, function after function.
std::vector<Op> collectFunctionBodiesPreOrder(Module& module);

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_IR_WALK_H_
