// Internal to the mpmd layer: MeshSet, the value of mesh inference's use and
// source sets (docs/mpmd.md, "Mesh inference").
//
// A set is either unspecified (every mesh: nothing constrains it) or a list
// of meshes, each with the origins (labels) that put it there, kept in the
// order they were first added. A wildcard mesh "*" stands for any mesh with
// its origins. Written as `#mpmd.meshes_with_origins<"m2"["a"], "m1">`.
#ifndef SHARDKIT_SRC_MPMD_MESH_SET_H_
#define SHARDKIT_SRC_MPMD_MESH_SET_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/ir/attribute.h"

namespace shardkit::mpmd::mpmd_internal {

inline constexpr std::string_view kWildcardMesh = "*";

class MeshSet {
 public:
  // Unspecified.
  MeshSet() = default;
  // Specified and empty.
  static MeshSet none();
  // The set `attr` holds; unspecified when `attr` is null (or not a set).
  static MeshSet fromAttr(const Attribute& attr);
  // The same, but empty rather than unspecified when `attr` is null (a use
  // set is always specified).
  static MeshSet useSetFromAttr(const Attribute& attr);
  explicit MeshSet(const MeshWithOrigins& mesh);

  bool specified() const { return meshes_.has_value(); }
  explicit operator bool() const { return specified(); }
  // Specified and without meshes.
  bool empty() const { return meshes_ && meshes_->empty(); }
  // The number of meshes (-1 when unspecified).
  int size() const { return meshes_ ? static_cast<int>(meshes_->size()) : -1; }
  bool hasWildcard() const { return wildcard_.has_value(); }

  void insert(const MeshWithOrigins& mesh);
  // Adds the meshes of `other` (nothing when it is unspecified; an
  // unspecified set becomes `other`).
  void unite(const MeshSet& other);
  // Keeps the meshes also in `other`, merging origins (nothing when `other`
  // is unspecified; an unspecified set becomes `other`).
  void intersect(const MeshSet& other);

  // The attribute (null when unspecified).
  Attribute toAttr() const;
  std::vector<MeshWithOrigins> toArray() const;
  // The mesh names, in order (none when unspecified).
  std::vector<std::string> meshNames(bool include_wildcard = false) const;
  bool contains(std::string_view mesh) const;
  bool sameMeshes(const MeshSet& other) const;

  // The mesh to assign (the set must be specified; none when empty): one of
  // `preferred` if the set has any, meshes with only high-priority origins
  // before the others, then the first in name order.
  std::optional<std::string> prioritizedMesh(
      const std::vector<std::string>& preferred = {}) const;

 private:
  using Origins = std::vector<std::string>;
  Origins* find(std::string_view mesh);
  const Origins* find(std::string_view mesh) const;
  static void addOrigins(Origins& to, const Origins& from);

  std::optional<std::vector<std::pair<std::string, Origins>>> meshes_;
  // The origins of the wildcard mesh, when the set has one.
  std::optional<Origins> wildcard_;
};

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_MESH_SET_H_
