#include "shardkit/core/mesh.h"

#include <numeric>

namespace shardkit {

std::vector<int64_t> Mesh::deviceIdsOrIota() const {
  if (!device_ids.empty()) return device_ids;
  std::vector<int64_t> ids(totalSize());
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

bool Mesh::hasIotaDeviceIds() const {
  if (device_ids.empty()) return false;
  for (size_t i = 0; i < device_ids.size(); ++i) {
    if (device_ids[i] != static_cast<int64_t>(i)) return false;
  }
  return static_cast<int64_t>(device_ids.size()) == totalSize();
}

bool Mesh::sameDevicesAndAxes(const Mesh& other) const {
  return axes == other.axes && deviceIdsOrIota() == other.deviceIdsOrIota();
}

}  // namespace shardkit
