#include "shardkit/core/sharding_math.h"

#include "shardkit/core/axis_ref_list.h"

namespace shardkit {

std::vector<int64_t> shardCounts(const TensorSharding& sharding,
                                 const Mesh& mesh) {
  std::vector<int64_t> counts;
  counts.reserve(sharding.dim_shardings.size());
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    counts.push_back(dim.shardedSize(mesh));
  }
  return counts;
}

std::vector<int64_t> localShape(const TensorSharding& sharding,
                                const Mesh& mesh, TensorShapeView shape) {
  std::vector<int64_t> local(shape.dims().begin(), shape.dims().end());
  for (size_t i = 0; i < local.size() && i < sharding.dim_shardings.size();
       ++i) {
    if (local[i] == kDynamicSize) continue;
    int64_t shards = sharding.dim_shardings[i].shardedSize(mesh);
    local[i] = (local[i] + shards - 1) / shards;
  }
  return local;
}

std::vector<int64_t> meshCoordinates(const Mesh& mesh, int64_t position) {
  std::vector<int64_t> coords(mesh.axes.size());
  for (size_t i = mesh.axes.size(); i-- > 0;) {
    coords[i] = position % mesh.axes[i].size;
    position /= mesh.axes[i].size;
  }
  return coords;
}

std::vector<int64_t> shardIndexAt(const TensorSharding& sharding,
                                  const Mesh& mesh, int64_t position) {
  std::vector<int64_t> coords = meshCoordinates(mesh, position);
  std::vector<int64_t> index;
  index.reserve(sharding.dim_shardings.size());
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    // Mixed radix over the dimension's axes, major to minor. A sub-axis
    // (pre)size of an axis of size n is the middle digit of the coordinate
    // written in radix [pre, size, n / (pre * size)].
    int64_t shard = 0;
    for (const AxisRef& axis : dim.axes) {
      int axis_index = mesh.axisIndex(axis.name);
      if (axis_index < 0) continue;
      int64_t axis_size = mesh.axes[axis_index].size;
      int64_t size = axis.size(mesh);
      int64_t post = axis_size / axis.nextPreSize(mesh);
      int64_t digit = (coords[axis_index] / post) % size;
      shard = shard * size + digit;
    }
    index.push_back(shard);
  }
  return index;
}

std::vector<DeviceShard> deviceShards(const TensorSharding& sharding,
                                      const Mesh& mesh) {
  std::vector<int64_t> ids = mesh.deviceIdsOrIota();
  std::vector<DeviceShard> result;
  result.reserve(ids.size());
  for (size_t position = 0; position < ids.size(); ++position) {
    result.push_back({ids[position], shardIndexAt(sharding, mesh, position)});
  }
  return result;
}

}  // namespace shardkit
