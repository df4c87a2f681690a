// The canonical form of a sharding: replicated and unreduced axes in mesh
// order, adjacent consecutive sub-axes merged (into the full axis when they
// cover it).
#ifndef SHARDKIT_CORE_CANONICALIZE_H_
#define SHARDKIT_CORE_CANONICALIZE_H_

#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

// Returns `sharding` in canonical form for `mesh`. Idempotent; leaves a valid,
// already canonical sharding unchanged.
TensorSharding canonicalize(const TensorSharding& sharding, const Mesh& mesh);

}  // namespace shardkit

#endif  // SHARDKIT_CORE_CANONICALIZE_H_
