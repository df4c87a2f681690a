// Device groups along mesh axes (sim/device_groups.h).
#include "shardkit/sim/device_groups.h"

#include <algorithm>
#include <map>

#include "shardkit/core/sharding_math.h"
#include "shardkit/core/verify.h"
#include "shardkit/support/strings.h"

namespace shardkit {
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

absl::StatusOr<std::vector<std::vector<int64_t>>> collectiveGroups(
    absl::Span<const AxisRef> axes, const Mesh& mesh) {
  for (const AxisRef& axis : axes) {
    absl::Status status = verifyAxisRef(axis, mesh);
    if (!status.ok()) return status;
  }
  absl::StatusOr<MeshDevices> devices = MeshDevices::of(mesh);
  if (!devices.ok()) return devices.status();
  std::vector<std::vector<int64_t>> by_id = groupsAlong(axes, mesh, *devices);
  std::vector<bool> taken(devices->id_bound, false);
  std::vector<std::vector<int64_t>> groups;
  for (int64_t id : devices->ids) {
    if (taken[id]) continue;
    std::vector<int64_t> group = by_id[id];
    for (int64_t member : group) taken[member] = true;
    std::sort(group.begin(), group.end(), [&](int64_t a, int64_t b) {
      return coordinateAlong(axes, mesh, *devices, a) <
             coordinateAlong(axes, mesh, *devices, b);
    });
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace shardkit
