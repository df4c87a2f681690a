#include "device_layout.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "shardkit/core/sharding_math.h"
#include "shardkit/support/strings.h"

namespace shardkit::sim_internal {
namespace {

// Mesh sizes beyond which a host simulation makes no sense.
constexpr int64_t kMaxDevices = 1 << 16;

// The digit of coordinate `coord` (of an axis of size `axis_size`) that the
// (sub-)axis `axis` reads, and its weight.
struct Digit {
  int64_t value;
  int64_t weight;
};
Digit digitOf(const AxisRef& axis, int64_t coord, int64_t axis_size,
              const Mesh& mesh) {
  const int64_t size = axis.size(mesh);
  const int64_t weight = axis_size / (axis.preSize() * size);
  return {(coord / weight) % size, weight};
}

}  // namespace

absl::StatusOr<MeshDevices> MeshDevices::of(const Mesh& mesh) {
  MeshDevices devices;
  if (mesh.totalSize() > kMaxDevices) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("mesh of ", mesh.totalSize(), " devices is too large")));
  }
  devices.ids = mesh.deviceIdsOrIota();
  for (int64_t id : devices.ids) {
    if (id < 0 || id >= kMaxDevices) {
      return absl::InvalidArgumentError(
          toAbsl(strCat("device id ", id, " out of range")));
    }
    devices.id_bound = std::max(devices.id_bound, id + 1);
  }
  devices.coords.resize(devices.id_bound);
  devices.used.assign(devices.id_bound, false);
  for (size_t position = 0; position < devices.ids.size(); ++position) {
    const int64_t id = devices.ids[position];
    if (devices.used[id]) {
      return absl::InvalidArgumentError("device ids are not distinct");
    }
    devices.used[id] = true;
    devices.coords[id] = meshCoordinates(mesh, static_cast<int64_t>(position));
  }
  return devices;
}

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

std::vector<std::vector<int64_t>> groupsAlong(absl::Span<const AxisRef> axes,
                                              const Mesh& mesh,
                                              const MeshDevices& devices) {
  std::map<std::vector<int64_t>, std::vector<int64_t>> by_key;
  std::vector<std::vector<int64_t>> keys(devices.id_bound);
  for (int64_t id = 0; id < devices.id_bound; ++id) {
    if (!devices.used[id]) continue;
    std::vector<int64_t> key = devices.coords[id];
    for (size_t i = 0; i < mesh.axes.size(); ++i) {
      for (const AxisRef& axis : axes) {
        if (axis.name != mesh.axes[i].name) continue;
        Digit digit =
            digitOf(axis, devices.coords[id][i], mesh.axes[i].size, mesh);
        key[i] -= digit.value * digit.weight;
      }
    }
    by_key[key].push_back(id);
    keys[id] = std::move(key);
  }
  std::vector<std::vector<int64_t>> groups(devices.id_bound);
  for (int64_t id : devices.ids) groups[id] = by_key[keys[id]];
  return groups;
}

int64_t coordinateAlong(absl::Span<const AxisRef> axes, const Mesh& mesh,
                        const MeshDevices& devices, int64_t id) {
  int64_t coordinate = 0;
  for (const AxisRef& axis : axes) {
    const int index = mesh.axisIndex(axis.name);
    if (index < 0) continue;
    Digit digit =
        digitOf(axis, devices.coords[id][index], mesh.axes[index].size, mesh);
    coordinate = coordinate * axis.size(mesh) + digit.value;
  }
  return coordinate;
}

}  // namespace shardkit::sim_internal
