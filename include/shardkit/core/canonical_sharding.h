// The canonical form of a sharding: replicated and unreduced axes in mesh
// order, adjacent consecutive sub-axes merged (into the full axis when they
// cover it).
#ifndef SHARDKIT_CORE_CANONICAL_SHARDING_H_
#define SHARDKIT_CORE_CANONICAL_SHARDING_H_

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

// Returns `sharding` in canonical form for `mesh`. Idempotent; leaves a valid,
// already canonical sharding unchanged.
inline TensorSharding canonicalize(const TensorSharding& sharding,
                                   const Mesh& mesh) {
  TensorSharding result = sharding;
  for (DimensionSharding& dim : result.dim_shardings) {
    mergeAdjacentSubAxes(dim.axes, mesh);
  }
  sortAndMergeAxes(result.replicated_axes, mesh);
  sortAndMergeAxes(result.unreduced_axes, mesh);
  return result;
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_CANONICAL_SHARDING_H_
