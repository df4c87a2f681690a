// MeshSet: the sets of mesh inference.
#include "src/mpmd/mesh_set.h"

#include <algorithm>

#include "shardkit/dialect/mpmd/mpmd_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Broadcast inputs may live anywhere: meshes they put in a set are picked
// last.
constexpr std::string_view kBroadcastInputOrigin = "broadcast_in";

bool lowPriority(const std::vector<std::string>& origins) {
  return std::find(origins.begin(), origins.end(), kBroadcastInputOrigin) !=
         origins.end();
}

}  // namespace

MeshSet MeshSet::none() {
  MeshSet set;
  set.meshes_.emplace();
  return set;
}

MeshSet MeshSet::fromAttr(const Attribute& attr) {
  MeshSet set;
  std::optional<std::vector<MeshWithOrigins>> meshes =
      meshesWithOriginsOf(attr);
  if (!meshes) return set;
  set.meshes_.emplace();
  for (const MeshWithOrigins& mesh : *meshes) set.insert(mesh);
  return set;
}

MeshSet MeshSet::useSetFromAttr(const Attribute& attr) {
  MeshSet set = fromAttr(attr);
  if (!set.meshes_) set.meshes_.emplace();
  return set;
}

MeshSet::MeshSet(const MeshWithOrigins& mesh) { insert(mesh); }

MeshSet::Origins* MeshSet::find(std::string_view mesh) {
  if (!meshes_) return nullptr;
  for (auto& [name, origins] : *meshes_) {
    if (name == mesh) return &origins;
  }
  return nullptr;
}

const MeshSet::Origins* MeshSet::find(std::string_view mesh) const {
  return const_cast<MeshSet*>(this)->find(mesh);
}

void MeshSet::addOrigins(Origins& to, const Origins& from) {
  for (const std::string& origin : from) {
    if (std::find(to.begin(), to.end(), origin) == to.end())
      to.push_back(origin);
  }
}

void MeshSet::insert(const MeshWithOrigins& mesh) {
  if (!meshes_) meshes_.emplace();
  if (mesh.mesh_name == kWildcardMesh) {
    if (!wildcard_) wildcard_.emplace();
    addOrigins(*wildcard_, mesh.origins);
    return;
  }
  Origins* origins = find(mesh.mesh_name);
  if (!origins) {
    meshes_->emplace_back(mesh.mesh_name, Origins());
    origins = &meshes_->back().second;
  }
  addOrigins(*origins, mesh.origins);
}

void MeshSet::unite(const MeshSet& other) {
  if (!other.meshes_) return;
  if (!meshes_) {
    *this = other;
    return;
  }
  for (const auto& [mesh, origins] : *other.meshes_) {
    insert(MeshWithOrigins{mesh, origins});
  }
  if (other.wildcard_) {
    if (!wildcard_) wildcard_.emplace();
    addOrigins(*wildcard_, *other.wildcard_);
  }
}

void MeshSet::intersect(const MeshSet& other) {
  if (!other.meshes_) return;
  if (!meshes_) {
    *this = other;
    return;
  }
  std::vector<std::pair<std::string, Origins>> kept;
  for (auto& [mesh, origins] : *meshes_) {
    if (const Origins* theirs = other.find(mesh)) {
      addOrigins(origins, *theirs);
    } else if (other.hasWildcard()) {
      addOrigins(origins, *other.wildcard_);
    } else {
      continue;
    }
    kept.emplace_back(mesh, origins);
  }
  // Our wildcard matches the meshes only `other` has.
  if (hasWildcard()) {
    for (const auto& [mesh, origins] : *other.meshes_) {
      if (find(mesh)) continue;
      Origins merged = origins;
      addOrigins(merged, *wildcard_);
      kept.emplace_back(mesh, merged);
    }
  }
  meshes_ = std::move(kept);
  // The wildcard stays only when both sets have one.
  if (wildcard_ && other.wildcard_) {
    addOrigins(*wildcard_, *other.wildcard_);
  } else {
    wildcard_.reset();
  }
}

Attribute MeshSet::toAttr() const {
  if (!meshes_) return Attribute();
  return meshesWithOriginsAttr(toArray());
}

std::vector<MeshWithOrigins> MeshSet::toArray() const {
  std::vector<MeshWithOrigins> result;
  if (!meshes_) return result;
  for (const auto& [mesh, origins] : *meshes_)
    result.push_back({mesh, origins});
  if (hasWildcard()) result.push_back({std::string(kWildcardMesh), *wildcard_});
  return result;
}

std::vector<std::string> MeshSet::meshNames(bool include_wildcard) const {
  std::vector<std::string> names;
  if (!meshes_) return names;
  for (const auto& [mesh, origins] : *meshes_) names.push_back(mesh);
  if (include_wildcard && hasWildcard())
    names.push_back(std::string(kWildcardMesh));
  return names;
}

bool MeshSet::contains(std::string_view mesh) const {
  return find(mesh) != nullptr;
}

bool MeshSet::sameMeshes(const MeshSet& other) const {
  std::vector<std::string> mine = meshNames(true);
  std::vector<std::string> theirs = other.meshNames(true);
  if (mine.size() != theirs.size()) return false;
  for (const std::string& mesh : mine) {
    if (std::find(theirs.begin(), theirs.end(), mesh) == theirs.end())
      return false;
  }
  return true;
}

std::optional<std::string> MeshSet::prioritizedMesh(
    const std::vector<std::string>& preferred) const {
  if (!meshes_ || meshes_->empty()) return std::nullopt;
  std::vector<std::pair<std::string, Origins>> candidates;
  for (const std::string& mesh : preferred) {
    if (const Origins* origins = find(mesh)) {
      candidates.emplace_back(mesh, *origins);
    } else if (hasWildcard()) {
      candidates.emplace_back(mesh, *wildcard_);
    }
  }
  if (candidates.empty()) candidates = *meshes_;
  std::optional<std::string> high, low;
  for (const auto& [mesh, origins] : candidates) {
    std::optional<std::string>& best = lowPriority(origins) ? low : high;
    if (!best || meshNameLess(mesh, *best)) best = mesh;
  }
  return high ? high : low;
}

}  // namespace shardkit::mpmd::mpmd_internal
