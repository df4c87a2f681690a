// Internal to the propagation layer: where the sharding of each value lives
// while propagating, and how the edges of a manual computation translate
// between the global view outside its body and the local view inside.
//
// A value's *slot* is the value that holds its sharding:
//   - a target of a data-flow edge that has an `sdy.data_flow_edge` op (the
//     edge owner, and a while's cond/body argument i, a target of the edge of
//     result i): the edge op's result;
//   - an op result, a function argument, or an argument of a named or manual
//     computation's body that has no edge op: the value itself;
//   - anything else (arguments of other regions, e.g. of a reduction body or
//     of a while without edge ops): none. Such a value counts as unsharded
//     and propagation never writes to it.
#ifndef SHARDKIT_SRC_PROPAGATION_VALUE_SLOTS_H_
#define SHARDKIT_SRC_PROPAGATION_VALUE_SLOTS_H_

#include <optional>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"
#include "shardkit/ir/sharding_access.h"

namespace shardkit {

// The slot of `value` (see above), or a null Value.
Value shardingSlot(Value value);

// The sharding kept for `slot`: the in_shardings entry of a computation's
// body argument (without the manual axes, as the body sees it), else what
// getSharding reads.
std::optional<TensorSharding> loadSlotSharding(Value slot);
// Same without copying a sharding the module stores as it is: that one (valid
// until its attribute changes), or the computed one held in `scratch`, or
// null.
const TensorSharding* findSlotSharding(Value slot,
                                       std::optional<TensorSharding>& scratch);
// Stores it (a computation body argument's in_shardings entry gets the
// manual axes of its current entry back), storing `attrs` (which hold
// `sharding`) where setSharding would.
void storeSlotSharding(Value slot, const TensorSharding& sharding,
                       const ShardingAttrs& attrs);

// Dimensions of size 0 are never sharded (seed 000). A rule factor can be
// larger than one tensor's dimension (concatenating an empty operand), so an
// update for a value of `type` keeps each size-0 dimension as it was in `old`
// (empty if `old` is null) when it would give it axes of size above 1.
// Returns whether it changed anything.
bool keepZeroSizedDims(TensorSharding& update, const TensorSharding* old,
                       Type type, const Mesh& mesh);

// An `sdy.data_flow_edge` op keeps the sharding of its targets as they see
// it. For an edge of a manual computation that differs from the view of its
// sources, so the edge propagates in the sources' view:
//   - edge on a body argument (sources: the operands, outside): the manual
//     axes of the computation's in_sharding go in front before propagating
//     and come off after;
//   - edge on a result (sources: the returned values, inside): the manual
//     axes come off before, and those of the out_sharding go back after.
// Any other edge is unchanged. `stored` may be null (no sharding yet).
std::optional<TensorSharding> edgeShardingBeforePropagation(
    Op edge, const TensorSharding* stored);
TensorSharding edgeShardingAfterPropagation(Op edge,
                                            const TensorSharding& propagated);

}  // namespace shardkit

#endif  // SHARDKIT_SRC_PROPAGATION_VALUE_SLOTS_H_
