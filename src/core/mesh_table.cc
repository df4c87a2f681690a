#include "shardkit/core/mesh_table.h"

#include "shardkit/core/strings.h"

namespace shardkit {

void MeshTable::add(std::string name, Mesh mesh) {
  auto [it, inserted] = meshes_.insert_or_assign(name, std::move(mesh));
  if (inserted) names_.push_back(std::move(name));
}

const Mesh* MeshTable::find(std::string_view name) const {
  auto it = meshes_.find(toAbsl(name));
  return it == meshes_.end() ? nullptr : &it->second;
}

const Mesh* MeshTable::resolve(const MeshOrRef& mesh) const {
  if (const Mesh* inline_mesh = mesh.inlineMesh()) return inline_mesh;
  return find(mesh.name());
}

}  // namespace shardkit
