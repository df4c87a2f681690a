// Shard indices and replica groups of a mesh (device_groups.h).
#include "shardkit/partition/device_groups.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/support/strings.h"

namespace shardkit::partition {
namespace {

// The position of device `device_id` in the mesh's device order.
absl::StatusOr<int64_t> devicePosition(int64_t device_id, const Mesh& mesh) {
  if (!mesh.device_ids.empty()) {
    auto it =
        std::find(mesh.device_ids.begin(), mesh.device_ids.end(), device_id);
    if (it == mesh.device_ids.end()) {
      return absl::InvalidArgumentError(
          toAbsl(strCat("Device ID not found in mesh: ", device_id)));
    }
    return static_cast<int64_t>(it - mesh.device_ids.begin());
  }
  if (device_id < 0 || device_id >= mesh.totalSize()) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("Device ID out of range for mesh: ", device_id)));
  }
  return device_id;
}

// The product of the sizes of the mesh axes after the axis called `name`.
int64_t minorSize(const Mesh& mesh, std::string_view name) {
  int64_t size = 1;
  bool after = false;
  for (const MeshAxis& axis : mesh.axes) {
    if (after) size *= axis.size;
    if (axis.name == name) after = true;
  }
  return size;
}

}  // namespace

AxisRefVector orderedAxisRefs(absl::Span<const AxisRef> axes,
                              const Mesh& mesh) {
  // The cut points of each axis, in mesh order (an axis the mesh lacks comes
  // last, as a full axis).
  std::vector<std::pair<std::string, std::vector<int64_t>>> cuts;
  for (const MeshAxis& axis : mesh.axes) {
    cuts.push_back({axis.name, {1, axis.size}});
  }
  for (const AxisRef& ref : axes) {
    if (!ref.sub_axis_info) continue;
    auto it = std::find_if(cuts.begin(), cuts.end(),
                           [&](const auto& c) { return c.first == ref.name; });
    if (it == cuts.end()) {
      cuts.push_back({ref.name, {}});
      it = cuts.end() - 1;
    }
    it->second.push_back(ref.sub_axis_info->pre_size);
    it->second.push_back(ref.sub_axis_info->nextPreSize());
  }
  AxisRefVector out;
  for (auto& [name, points] : cuts) {
    if (points.size() == 2) {
      out.emplace_back(name);
      continue;
    }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      out.emplace_back(name, points[i], points[i + 1] / points[i]);
    }
  }
  return out;
}

AxisRefVector orderedAxisRefs(const TensorSharding& sharding,
                              const Mesh& mesh) {
  AxisRefVector axes;
  sharding.forEachShardingAxis([&](const AxisRef& a) { axes.push_back(a); });
  axes.insert(axes.end(), sharding.unreduced_axes.begin(),
              sharding.unreduced_axes.end());
  return orderedAxisRefs(axes, mesh);
}

int64_t totalAxesSize(absl::Span<const AxisRef> axes, const Mesh& mesh) {
  int64_t size = 1;
  for (const AxisRef& axis : axes) size *= axis.size(mesh);
  return size;
}

absl::StatusOr<int64_t> shardIndex(int64_t device_id, const Mesh& mesh,
                                   absl::Span<const AxisRef> axes) {
  absl::StatusOr<int64_t> position = devicePosition(device_id, mesh);
  if (!position.ok()) return position.status();
  int64_t index = 0;
  for (const AxisRef& axis : axes) {
    const int64_t size = axis.size(mesh);
    const int64_t full = mesh.axisSize(axis.name);
    const int64_t stride = full / (axis.preSize() * size);
    const int64_t coord =
        (*position / (minorSize(mesh, axis.name) * stride)) % size;
    index = index * size + coord;
  }
  return index;
}

ReplicaGroups replicaGroups(absl::Span<const AxisRef> axes, const Mesh& mesh) {
  const AxisRefVector pieces = orderedAxisRefs(axes, mesh);
  // The pieces outside `axes` first (mesh order), then those of `axes` in
  // their order.
  std::vector<size_t> order;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (std::find(axes.begin(), axes.end(), pieces[i]) == axes.end()) {
      order.push_back(i);
    }
  }
  for (const AxisRef& axis : axes) {
    auto it = std::find(pieces.begin(), pieces.end(), axis);
    if (it != pieces.end()) order.push_back(it - pieces.begin());
  }
  std::vector<int64_t> dims;
  for (const AxisRef& piece : pieces) dims.push_back(piece.size(mesh));
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];

  ReplicaGroups groups;
  const std::vector<int64_t> ids = mesh.deviceIdsOrIota();
  groups.group_size = totalAxesSize(axes, mesh);
  const int64_t total = static_cast<int64_t>(ids.size());
  groups.num_groups = groups.group_size > 0 ? total / groups.group_size : 0;
  groups.ids.reserve(ids.size());
  // Walks the permuted dims in row-major order.
  std::vector<int64_t> coords(order.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      offset += coords[i] * strides[order[i]];
    }
    groups.ids.push_back(offset < total ? ids[offset] : -1);
    for (size_t i = order.size(); i-- > 0;) {
      if (++coords[i] < dims[order[i]]) break;
      coords[i] = 0;
    }
  }
  return groups;
}

}  // namespace shardkit::partition
