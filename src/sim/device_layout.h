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

namespace shardkit::sim_internal {

// The devices of a mesh: ids in mesh order and each id's axis coordinates.
struct MeshDevices {
  std::vector<int64_t> ids;                  // by position
  std::vector<std::vector<int64_t>> coords;  // by id
  std::vector<bool> used;                    // by id
  int64_t id_bound = 0;                      // max id + 1

  static absl::StatusOr<MeshDevices> of(const Mesh& mesh);
};

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

// Device groups: ids that agree on every mesh coordinate digit outside
// `axes` communicate in a collective over `axes`. Returns, per device id,
// the ids of its group in increasing order (empty for unused ids).
std::vector<std::vector<int64_t>> groupsAlong(absl::Span<const AxisRef> axes,
                                              const Mesh& mesh,
                                              const MeshDevices& devices);

// `shape` with every size rounded up to a multiple of the shard counts
// `sharding` gives it (on `mesh`) and of `padded` (if given).
std::vector<int64_t> paddedShape(absl::Span<const int64_t> shape,
                                 const TensorSharding& sharding,
                                 const Mesh& mesh,
                                 absl::Span<const int64_t> padded = {});

// The coordinate of device `id` along `axes` read as one mixed-radix number,
// major first (0 for the device at the groups' origin).
int64_t coordinateAlong(absl::Span<const AxisRef> axes, const Mesh& mesh,
                        const MeshDevices& devices, int64_t id);

}  // namespace shardkit::sim_internal

#endif  // SHARDKIT_SRC_SIM_DEVICE_LAYOUT_H_
