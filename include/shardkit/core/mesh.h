// MeshAxis and Mesh: a logical, multi-dimensional view of a set of devices.
#ifndef SHARDKIT_CORE_MESH_H_
#define SHARDKIT_CORE_MESH_H_

#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/core/formatter.h"
#include "shardkit/core/strings.h"

namespace shardkit {

// A named axis of a mesh, e.g. `"x"=4`.
struct MeshAxis {
  std::string name;
  int64_t size = 1;

  friend bool operator==(const MeshAxis&, const MeshAxis&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const MeshAxis& a) {
    return H::combine(std::move(h), a.name, a.size);
  }
};

// A list of named axes and an optional explicit device order.
//
// `device_ids` empty means the implicit order iota(product(axis sizes)). With
// no axes, the mesh is either empty (`<[]>`, a placeholder) or maximal
// (`<[], device_ids=[3]>`: everything on one device).
struct Mesh {
  std::vector<MeshAxis> axes;
  std::vector<int64_t> device_ids;

  Mesh() = default;
  explicit Mesh(std::vector<MeshAxis> axes, std::vector<int64_t> ids = {})
      : axes(std::move(axes)), device_ids(std::move(ids)) {}

  // A maximal mesh: no axes, a single device.
  static Mesh maximal(int64_t device_id) { return Mesh({}, {device_id}); }

  bool empty() const { return axes.empty() && device_ids.empty(); }
  bool isMaximal() const { return axes.empty() && device_ids.size() == 1; }
  std::optional<int64_t> maximalDeviceId() const {
    if (isMaximal()) return device_ids.front();
    return std::nullopt;
  }

  // Index of the axis called `name`, or -1.
  int axisIndex(std::string_view name) const {
    for (size_t i = 0; i < axes.size(); ++i) {
      if (axes[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
  bool hasAxis(std::string_view name) const { return axisIndex(name) >= 0; }
  // Size of the axis called `name`; 0 when the mesh has no such axis.
  int64_t axisSize(std::string_view name) const {
    int i = axisIndex(name);
    return i < 0 ? 0 : axes[i].size;
  }
  // Product of all axis sizes (1 for a mesh without axes).
  int64_t totalSize() const {
    int64_t total = 1;
    for (const MeshAxis& axis : axes) total *= axis.size;
    return total;
  }
  // The device ids in mesh order, explicit or iota.
  std::vector<int64_t> deviceIdsOrIota() const {
    if (!device_ids.empty()) return device_ids;
    std::vector<int64_t> ids(totalSize());
    std::iota(ids.begin(), ids.end(), 0);
    return ids;
  }
  // True when `device_ids` is given and equals iota(totalSize()).
  bool hasIotaDeviceIds() const;

  // Same axes (names and sizes, in order) and the same device order, where an
  // absent device list equals an explicit iota.
  bool sameDevicesAndAxes(const Mesh& other) const;

  friend bool operator==(const Mesh&, const Mesh&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const Mesh& m) {
    return H::combine(std::move(h), m.axes, m.device_ids);
  }
};

inline bool Mesh::hasIotaDeviceIds() const {
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

inline bool Mesh::sameDevicesAndAxes(const Mesh& other) const {
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

namespace print_detail {

// Appends `<["a"=2], device_ids=[1, 0]>`.
inline void appendMesh(std::string& out, const Mesh& mesh) {
  out += "<[";
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (i) out += ", ";
    appendQuoted(out, mesh.axes[i].name);
    strAppend(out, "=", mesh.axes[i].size);
  }
  out += "]";
  if (!mesh.device_ids.empty()) {
    out += ", device_ids=[";
    for (size_t i = 0; i < mesh.device_ids.size(); ++i) {
      if (i) out += ", ";
      strAppend(out, mesh.device_ids[i]);
    }
    out += "]";
  }
  out += ">";
}

}  // namespace print_detail

inline std::string toString(const MeshAxis& axis) {
  std::string out;
  appendQuoted(out, axis.name);
  strAppend(out, "=", axis.size);
  return out;
}

// Prints the stripped form `<["a"=2], device_ids=[1, 0]>`.
inline std::string toString(const Mesh& mesh) {
  std::string out;
  print_detail::appendMesh(out, mesh);
  return out;
}

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::MeshAxis);
SHARDKIT_DEFINE_FORMATTER(shardkit::Mesh);

#endif  // SHARDKIT_CORE_MESH_H_
