// The mpmd dialect's attributes as plain values (docs/mpmd.md): the topology
// of named meshes a function runs on, the origin of a user computation, the
// reduction kinds and the meshes-with-origins sets of mesh inference.
//
// In a module they are opaque attributes holding their canonical text (the
// reader checks and re-spells them through the mpmd attribute syntax, see
// syntax.h); these functions read and build them.
//
//   #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["y"=2]>>>
//   #mpmd.named_mesh<"m1" : <["x"=2]>>
//   #mpmd.user_origin<"f"(1)>            (transpose count 1; 0 is not printed)
//   #mpmd.reduction<add>                 (none, add, max, min, mul, or, and)
//   #mpmd.origin<"label">
//   #mpmd.mesh_with_origins<"m1"["a", "b"]>
//   #mpmd.meshes_with_origins<"m2"["stage0"], "m1">
#ifndef SHARDKIT_DIALECT_MPMD_MPMD_ATTRS_H_
#define SHARDKIT_DIALECT_MPMD_MPMD_ATTRS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/mesh.h"
#include "shardkit/export.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/text/parser_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

struct NamedMesh {
  std::string name;
  Mesh mesh;
  friend bool operator==(const NamedMesh&, const NamedMesh&) = default;
};

// The meshes an mpmd program is placed on, in the order given.
struct Topology {
  std::vector<NamedMesh> meshes;

  // The mesh called `name`, or null.
  const Mesh* find(std::string_view name) const;
  // True if all meshes have the same axes, ignoring axes of size 1.
  bool isHomogeneous() const;
  friend bool operator==(const Topology&, const Topology&) = default;
};

// The user computation a fragment or named computation comes from, and how
// many JAX transposes (autodiff) produced it.
struct UserOrigin {
  std::string name;
  int64_t transpose_count = 0;
  friend bool operator==(const UserOrigin&, const UserOrigin&) = default;
};

enum class ReductionType {
  kNone,
  kAdd,
  kMax,
  kMin,
  kMul,
  kOr,
  kAnd,
  kLast = kAnd  // for enum tables (support/enum_table.h)
};

// "none", "add", ...
std::string_view toString(ReductionType type);
std::optional<ReductionType> parseReductionType(std::string_view text);

// A mesh and the labels of where its assignment came from.
struct MeshWithOrigins {
  std::string mesh_name;
  std::vector<std::string> origins;
  friend bool operator==(const MeshWithOrigins&,
                         const MeshWithOrigins&) = default;
};

// ---- Attribute values ----

Attribute topologyAttr(const Topology& topology);
Attribute userOriginAttr(const UserOrigin& origin);
Attribute reductionAttr(ReductionType type);
Attribute meshesWithOriginsAttr(const std::vector<MeshWithOrigins>& meshes);

// The value of an mpmd attribute, or nullopt if `attr` is not one of that
// kind.
std::optional<Topology> topologyOf(const Attribute& attr);
std::optional<UserOrigin> userOriginOf(const Attribute& attr);
std::optional<ReductionType> reductionOf(const Attribute& attr);
std::optional<std::vector<MeshWithOrigins>> meshesWithOriginsOf(
    const Attribute& attr);

// ---- Text ----

// The short form of a user origin inside op syntaxes: `"name"` or
// `"name"(N)`.
std::string shortUserOrigin(const UserOrigin& origin);
absl::StatusOr<UserOrigin> parseShortUserOrigin(ParserBase& p);

// The canonical text of an `#mpmd.<name>` attribute whose body starts at
// `p`'s current token (the reader's attribute syntax for the dialect).
absl::StatusOr<std::string> parseAttributeText(ParserBase& p,
                                               std::string_view name);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_MPMD_MPMD_ATTRS_H_
