// MeshAxis and Mesh: a logical, multi-dimensional view of a set of devices.
#ifndef SHARDKIT_CORE_MESH_H_
#define SHARDKIT_CORE_MESH_H_

#include <atomic>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/core/formatter.h"
#include "shardkit/internal/position_index.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/strings.h"

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

  // Index of the (first) axis called `name`, or -1. O(log n) for a mesh of
  // many axes, so that resolving every axis of a sharding stays linear.
  int axisIndex(std::string_view name) const {
    if (axes.size() > kLinearScanLimit) {
      if (int index = indexedAxis(name); index >= 0) return index;
    }
    return scanForAxis(name);
  }
  bool hasAxis(std::string_view name) const { return axisIndex(name) >= 0; }
  // Size of the axis called `name`; 0 when the mesh has no such axis.
  int64_t axisSize(std::string_view name) const {
    int i = axisIndex(name);
    return i < 0 ? 0 : axes[i].size;
  }
  // Product of all axis sizes (1 for a mesh without axes); INT64_MAX when it
  // overflows (only an unverified mesh can, see verifyMesh).
  int64_t totalSize() const {
    int64_t total = 1;
    for (const MeshAxis& axis : axes) total = saturatingMul(total, axis.size);
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
  // The same device ids in the same order, where an absent device list is
  // iota(totalSize()); never materializes the iota (a mesh may have 2^40
  // devices).
  bool sameDeviceOrder(const Mesh& other) const;

  // Copies and assignments leave the axis index behind, and a moved-from
  // mesh drops its own: each is rebuilt on first use.
  Mesh(const Mesh& other) : axes(other.axes), device_ids(other.device_ids) {}
  Mesh(Mesh&& other) noexcept
      : axes(std::move(other.axes)), device_ids(std::move(other.device_ids)) {
    other.indexed_axes_ = kNotIndexed;
  }
  Mesh& operator=(const Mesh& other) {
    axes = other.axes;
    device_ids = other.device_ids;
    indexed_axes_ = kNotIndexed;
    return *this;
  }
  Mesh& operator=(Mesh&& other) noexcept {
    axes = std::move(other.axes);
    device_ids = std::move(other.device_ids);
    indexed_axes_ = kNotIndexed;
    other.indexed_axes_ = kNotIndexed;
    return *this;
  }

  friend bool operator==(const Mesh& a, const Mesh& b) {
    return a.axes == b.axes && a.device_ids == b.device_ids;
  }
  template <typename H>
  friend H AbslHashValue(H h, const Mesh& m) {
    return H::combine(std::move(h), m.axes, m.device_ids);
  }

 private:
  static constexpr size_t kLinearScanLimit = 8;

  int scanForAxis(std::string_view name) const {
    for (size_t i = 0; i < axes.size(); ++i) {
      if (axes[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
  // The index of `name` by the hash index of the axis names, built on first
  // use (and again when `axes` changed size). A hit is confirmed against
  // `axes`; -1 when the index cannot tell (a miss, or `axes` changed in
  // place), and the caller scans.
  int indexedAxis(std::string_view name) const {
    // A const mesh may be read from several threads: the index is built and
    // read under a spin lock (held for a lookup, or once for the build).
    while (index_lock_.test_and_set(std::memory_order_acquire)) {
    }
    if (indexed_axes_ != axes.size()) {
      axis_index_.clear();
      for (size_t i = 0; i < axes.size(); ++i) {
        const uint64_t hash = core_detail::hashName(axes[i].name);
        if (findIndexed(axes[i].name, hash) < 0) {
          axis_index_.add(static_cast<int32_t>(i), hash);
        }
      }
      indexed_axes_ = axes.size();
    }
    const int index = findIndexed(name, core_detail::hashName(name));
    index_lock_.clear(std::memory_order_release);
    return index;
  }
  int findIndexed(std::string_view name, uint64_t hash) const {
    // Indexed positions are below axes.size(): the index is rebuilt when
    // the size changes.
    return axis_index_.find(hash,
                            [&](int32_t i) { return axes[i].name == name; });
  }

  // The first position of each axis name, for meshes of many axes.
  mutable std::atomic_flag index_lock_;
  mutable core_detail::PositionIndex axis_index_;
  // axes.size() when the index was built, or kNotIndexed.
  static constexpr size_t kNotIndexed = SIZE_MAX;
  mutable size_t indexed_axes_ = kNotIndexed;
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
  return axes == other.axes && sameDeviceOrder(other);
}

inline bool Mesh::sameDeviceOrder(const Mesh& other) const {
  if (device_ids.empty() && other.device_ids.empty()) {
    return totalSize() == other.totalSize();
  }
  if (!device_ids.empty() && !other.device_ids.empty()) {
    return device_ids == other.device_ids;
  }
  // One explicit list against the implicit iota of the other mesh.
  const std::vector<int64_t>& ids =
      device_ids.empty() ? other.device_ids : device_ids;
  const int64_t count = device_ids.empty() ? totalSize() : other.totalSize();
  if (static_cast<int64_t>(ids.size()) != count) return false;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// Appends `"a"=2`.
inline void appendTo(std::string& out, const MeshAxis& axis) {
  appendQuoted(out, axis.name);
  strAppend(out, "=", axis.size);
}

// Appends the stripped form `<["a"=2], device_ids=[1, 0]>`.
inline void appendTo(std::string& out, const Mesh& mesh) {
  appendList(out, "<[", mesh.axes, appendPrintable, "]");
  if (!mesh.device_ids.empty()) {
    appendList(out, ", device_ids=[", mesh.device_ids, appendInt, "]");
  }
  out += ">";
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_MESH_H_
