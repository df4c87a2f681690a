// What a sharding means for storage: shard counts per dimension, the local
// (per-device) shape, and which device holds which shard.
#ifndef SHARDKIT_CORE_SHARDING_MATH_H_
#define SHARDKIT_CORE_SHARDING_MATH_H_

#include <cstdint>
#include <vector>

#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

// The number of shards of every dimension: the product of its axis sizes.
std::vector<int64_t> shardCounts(const TensorSharding& sharding,
                                 const Mesh& mesh);

// The shape each device holds: every static dimension divided by its shard
// count, rounded up (the last shards are padded when it does not divide).
// Dynamic dimensions stay dynamic.
std::vector<int64_t> localShape(const TensorSharding& sharding,
                                const Mesh& mesh, TensorShapeView shape);

// The coordinate of every mesh axis for the device at `position` in the
// mesh's device order (row-major over the axes).
std::vector<int64_t> meshCoordinates(const Mesh& mesh, int64_t position);

// The shard index along every dimension held by the device at `position` in
// the mesh's device order.
std::vector<int64_t> shardIndexAt(const TensorSharding& sharding,
                                  const Mesh& mesh, int64_t position);

// For every device id of the mesh (in mesh order), the multi-dimensional
// shard index it holds. Devices not told apart by any sharding axis hold the
// same shard (they are replicas).
struct DeviceShard {
  int64_t device_id;
  std::vector<int64_t> shard_index;
};
std::vector<DeviceShard> deviceShards(const TensorSharding& sharding,
                                      const Mesh& mesh);

}  // namespace shardkit

#endif  // SHARDKIT_CORE_SHARDING_MATH_H_
