// Internal to the mpmd layer: shardings of mesh tensors, shared by the
// sharding propagation passes.
#ifndef SHARDKIT_SRC_MPMD_SHARDING_UTILS_H_
#define SHARDKIT_SRC_MPMD_SHARDING_UTILS_H_

#include <optional>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// Gives the mesh tensor type of `value` the sharding `sharding` (the
// reference's UpdateValueTypeWithSharding): nothing happens when `sharding`
// is null or `value` is not a mesh tensor.
void setTypeSharding(Value value, const TensorSharding* sharding);
inline void setTypeSharding(Value value,
                            const std::optional<TensorSharding>& sharding) {
  setTypeSharding(value, sharding ? &*sharding : nullptr);
}

// True if no dimension is sharded (a missing sharding is replicated).
bool isReplicated(const TensorSharding* sharding);

// True if `a` and `b` split a tensor alike: the same mesh, the same axes per
// dimension and the same unreduced axes (open or closed dimensions and
// priorities do not matter); a missing sharding equals a replicated one.
bool equivalentShardings(const TensorSharding* a, const TensorSharding* b);

// Cuts every fragment in/out sharding and transfer result sharding of
// `module` to what splits its tensor evenly (divisible_edge_shardings.cc).
void makeEdgeShardingsDivisible(Module& module);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_SHARDING_UTILS_H_
