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
  // Compares the id count with the product of the axis sizes without
  // computing a product that may overflow (the mesh may be unverified, e.g.
  // straight from the parser).
  const int64_t count = static_cast<int64_t>(device_ids.size());
  int64_t product = 1;
  for (const MeshAxis& axis : axes) {
    if (axis.size <= 0) return false;
    if (product > count / axis.size) return false;
    product *= axis.size;
  }
  return product == count;
}

bool Mesh::sameDevicesAndAxes(const Mesh& other) const {
  if (axes != other.axes) return false;
  if (device_ids.empty() && other.device_ids.empty()) return true;
  if (!device_ids.empty() && !other.device_ids.empty()) {
    return device_ids == other.device_ids;
  }
  // One explicit list against the implicit iota.
  const std::vector<int64_t>& ids =
      device_ids.empty() ? other.device_ids : device_ids;
  if (static_cast<int64_t>(ids.size()) != totalSize()) return false;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace shardkit
