// Where every device's shard lies in the global tensor, and which devices
// a collective groups together. Internal to the simulator.
#ifndef SHARDKIT_SRC_SIM_DEVICE_LAYOUT_H_
#define SHARDKIT_SRC_SIM_DEVICE_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/sim/device_groups.h"

namespace shardkit::sim_internal {

// The blocks a sharding assigns: one local shape for all devices and, per
// device id, the global start of its block in every dimension. The tensor is
// padded to `padded_shape` (every size a multiple of the dimension's shard
// count) and cut into equal blocks; positions past `shape` are padding.
struct ShardLayout {
  std::vector<int64_t> shape;        // global
  std::vector<int64_t> local_shape;  // padded_shape / shard count
  std::vector<int64_t> local_strides;
  int64_t local_size = 1;
  std::vector<std::vector<int64_t>> starts;  // by device id

  // Fails if a padded size is smaller than the size or not a multiple of
  // the shard count.
  static absl::StatusOr<ShardLayout> of(const TensorSharding& sharding,
                                        const Mesh& mesh,
                                        const MeshDevices& devices,
                                        absl::Span<const int64_t> shape,
                                        absl::Span<const int64_t> padded_shape);

  // The global flat index of local position `offset` of device `id`, or -1
  // for a padded position.
  int64_t globalIndex(int64_t id, int64_t offset) const;
};

// `shape` with every size rounded up to a multiple of the shard counts
// `sharding` gives it (on `mesh`) and of `padded` (if given).
std::vector<int64_t> paddedShape(absl::Span<const int64_t> shape,
                                 const TensorSharding& sharding,
                                 const Mesh& mesh,
                                 absl::Span<const int64_t> padded = {});

}  // namespace shardkit::sim_internal

#endif  // SHARDKIT_SRC_SIM_DEVICE_LAYOUT_H_
