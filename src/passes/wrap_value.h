// Wrapping a value in an op that stands for it (an `sdy.data_flow_edge`,
// `sdy.func_data_flow_edge`): the op takes the value and every other use of
// the value uses the op's result instead. Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_WRAP_VALUE_H_
#define SHARDKIT_SRC_PASSES_WRAP_VALUE_H_

#include "shardkit/ir/graph.h"

namespace shardkit::passes_internal {

// Creates the op of `state` (its name, attributes and location; the operand
// and result type are `value`'s) and places it right after `anchor`, or with
// a null `anchor` right after `value`'s definition (first in its block for a
// block argument). Returns the op: passing it as the next anchor keeps the
// wrappers of several values in order.
Op wrapValue(Module& module, OperationState state, Value value, Op anchor);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_WRAP_VALUE_H_
