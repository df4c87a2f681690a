// MeshTable: the `sdy.mesh` symbols of a module, by name, and the resolution
// of a sharding's MeshOrRef to a Mesh.
#ifndef SHARDKIT_CORE_MESH_TABLE_H_
#define SHARDKIT_CORE_MESH_TABLE_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/internal/position_index.h"

namespace shardkit {

class MeshTable {
 public:
  MeshTable() = default;

  // Adds or replaces the mesh called `name`. Insertion order is kept, and
  // pointers returned by find() stay valid (a replaced mesh changes in place).
  void add(std::string name, Mesh mesh) {
    const uint64_t hash = core_detail::hashName(name);
    num_maximal_ += mesh.isMaximal();
    if (int32_t i = indexed(name, hash); i >= 0) {
      num_maximal_ -= meshes_[i]->isMaximal();
      *meshes_[i] = std::move(mesh);
      return;
    }
    index_.add(static_cast<int32_t>(names_.size()), hash);
    names_.push_back(std::move(name));
    meshes_.push_back(std::make_unique<Mesh>(std::move(mesh)));
  }
  // The mesh called `name`, or null.
  const Mesh* find(std::string_view name) const {
    // Modules have a mesh or two: comparing names beats a map lookup.
    constexpr size_t kLinearScanLimit = 4;
    if (names_.size() <= kLinearScanLimit) {
      for (size_t i = 0; i < names_.size(); ++i) {
        if (names_[i] == name) return meshes_[i].get();
      }
      return nullptr;
    }
    int32_t i = indexed(name, core_detail::hashName(name));
    return i < 0 ? nullptr : meshes_[i].get();
  }
  // The mesh a sharding refers to (its inline mesh or the named one), or null.
  const Mesh* resolve(const MeshOrRef& mesh) const {
    if (const Mesh* inline_mesh = mesh.inlineMesh()) return inline_mesh;
    return find(mesh.name());
  }
  const Mesh* resolve(const TensorSharding& sharding) const {
    return resolve(sharding.mesh);
  }
  // The name of the mesh the whole program runs on, as the reference's
  // export passes pick it: the first mesh with axes (so neither a maximal
  // mesh nor an empty one); empty if there is none.
  std::string_view globalMeshName() const {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (!meshes_[i]->axes.empty()) return names_[i];
    }
    return {};
  }
  bool empty() const { return names_.empty(); }
  size_t size() const { return names_.size(); }
  // Whether a mesh of the table is maximal (one device, no axes): without
  // one, only an inline mesh can put a tensor on a single device.
  bool hasMaximalMesh() const { return num_maximal_ > 0; }
  // Names in insertion order.
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<Mesh>> meshes_;  // parallel to names_
  size_t num_maximal_ = 0;  // how many of meshes_ are maximal
  // The positions in names_, by name (a hash index: cheap to compile).
  core_detail::PositionIndex index_;

  int32_t indexed(std::string_view name, uint64_t hash) const {
    return index_.find(hash, [&](int32_t i) { return names_[i] == name; });
  }
};

}  // namespace shardkit

#endif  // SHARDKIT_CORE_MESH_TABLE_H_
