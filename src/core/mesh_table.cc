#include "shardkit/core/mesh_table.h"

#include "shardkit/core/strings.h"

namespace shardkit {

void MeshTable::add(std::string name, Mesh mesh) {
  auto [it, inserted] = index_.try_emplace(toAbsl(name), names_.size());
  if (!inserted) {
    *meshes_[it->second] = std::move(mesh);
    return;
  }
  names_.push_back(std::move(name));
  meshes_.push_back(std::make_unique<Mesh>(std::move(mesh)));
}

const Mesh* MeshTable::find(std::string_view name) const {
  // Modules have a mesh or two: comparing names beats hashing them.
  constexpr size_t kLinearScanLimit = 4;
  if (names_.size() <= kLinearScanLimit) {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return meshes_[i].get();
    }
    return nullptr;
  }
  auto it = index_.find(toAbsl(name));
  return it == index_.end() ? nullptr : meshes_[it->second].get();
}

const Mesh* MeshTable::resolve(const MeshOrRef& mesh) const {
  if (const Mesh* inline_mesh = mesh.inlineMesh()) return inline_mesh;
  return find(mesh.name());
}

}  // namespace shardkit
