#include "device_layout.h"

#include <algorithm>
#include <numeric>

#include "shardkit/core/sharding_math.h"
#include "shardkit/support/strings.h"

namespace shardkit::sim_internal {

std::vector<int64_t> paddedShape(absl::Span<const int64_t> shape,
                                 const TensorSharding& sharding,
                                 const Mesh& mesh,
                                 absl::Span<const int64_t> padded) {
  std::vector<int64_t> counts = shardCounts(sharding, mesh);
  std::vector<int64_t> result(shape.begin(), shape.end());
  for (size_t d = 0; d < result.size() && d < counts.size(); ++d) {
    int64_t multiple = std::max<int64_t>(counts[d], 1);
    if (d < padded.size() && padded[d] > 0) {
      multiple = std::lcm(multiple, padded[d]);
    }
    result[d] = (result[d] + multiple - 1) / multiple * multiple;
  }
  return result;
}

absl::StatusOr<ShardLayout> ShardLayout::of(
    const TensorSharding& sharding, const Mesh& mesh,
    const MeshDevices& devices, absl::Span<const int64_t> shape,
    absl::Span<const int64_t> padded_shape) {
  ShardLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  const size_t rank = shape.size();
  std::vector<int64_t> counts = shardCounts(sharding, mesh);
  if (counts.size() != rank || padded_shape.size() != rank) {
    return absl::InvalidArgumentError("sharding and shape ranks differ");
  }
  layout.local_shape.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (counts[d] <= 0 || padded_shape[d] < shape[d] ||
        padded_shape[d] % counts[d] != 0) {
      return absl::InvalidArgumentError(
          toAbsl(strCat("dimension ", d, " padded to ", padded_shape[d],
                        " cannot be split into ", counts[d], " shards")));
    }
    layout.local_shape[d] = padded_shape[d] / counts[d];
  }
  layout.local_strides.assign(rank, 1);
  for (size_t d = rank; d-- > 0;) {
    layout.local_strides[d] = layout.local_size;
    layout.local_size *= layout.local_shape[d];
  }
  layout.starts.resize(devices.id_bound);
  for (int64_t id : devices.ids) {
    std::vector<int64_t>& start = layout.starts[id];
    start.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
      const AxisRefVector& axes = sharding.dim_shardings[d].axes;
      start[d] =
          coordinateAlong(axes, mesh, devices, id) * layout.local_shape[d];
    }
  }
  return layout;
}

int64_t ShardLayout::globalIndex(int64_t id, int64_t offset) const {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t global =
        starts[id][d] + (offset / local_strides[d]) % local_shape[d];
    if (global >= shape[d]) return -1;
    flat = flat * shape[d] + global;
  }
  return flat;
}

}  // namespace shardkit::sim_internal
