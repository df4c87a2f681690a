// MeshTensorType: `!mpmd.mesh_tensor<"m1", tensor<4x8xf32>,
// sharding=<@mesh, [{"x"}, {?}]>, memory_kind="device">`, a ranked tensor
// placed on one mesh of the enclosing function's topology, optionally sharded
// within that mesh (fully replicated without a sharding) and in a memory kind.
//
// In a module it is a type kept as its canonical text (the mpmd type syntax
// checks and spells it when the module is read); this is its value form.
#ifndef SHARDKIT_DIALECT_MPMD_MESH_TENSOR_H_
#define SHARDKIT_DIALECT_MPMD_MESH_TENSOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/type.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

inline constexpr std::string_view kMemoryKindDevice = "device";
inline constexpr std::string_view kMemoryKindPinnedHost = "pinned_host";
inline constexpr std::string_view kMemoryKindUnpinnedHost = "unpinned_host";

struct MeshTensorType {
  std::string mesh_name;
  // The global (unsharded) tensor: `dims` x `element_type` [, encoding].
  std::vector<int64_t> dims;
  std::string element_type;
  std::string encoding;
  std::optional<TensorSharding> sharding;
  std::optional<std::string> memory_kind;

  // The mesh tensor of type `type`, or nullopt for any other type.
  static std::optional<MeshTensorType> of(Type type);
  // A fully replicated mesh tensor of `tensor` (a ranked tensor) on `mesh`.
  static MeshTensorType fullyReplicated(std::string_view mesh, Type tensor);

  // `!mpmd.mesh_tensor<...>` in its canonical spelling.
  std::string str() const;
  Type toType(TypeContext& types) const { return types.other(str()); }
  // The global tensor type, `tensor<4x8xf32>`.
  Type globalType(TypeContext& types) const;
  std::string globalTypeText() const;

  bool isFullyReplicated() const {
    return !sharding || sharding->isFullyReplicated();
  }
  bool isOnHost() const {
    return memory_kind && (*memory_kind == kMemoryKindPinnedHost ||
                           *memory_kind == kMemoryKindUnpinnedHost);
  }
  // The same tensor with another sharding (none when null).
  MeshTensorType withSharding(const TensorSharding* new_sharding) const;

  friend bool operator==(const MeshTensorType&,
                         const MeshTensorType&) = default;
};

// Makes mesh tensor types created from now on answer Type::tensorView() and
// Type::shape() with their global tensor (ir/type.h), so that the sdy layer
// sees the shape a sharding of a mesh tensor value splits. Called by the op
// registration of the dialect.
void registerMeshTensorView();

// True if `type` is a mesh tensor type.
bool isMeshTensor(Type type);
// The mesh name of a mesh tensor type ("" for any other type).
std::string meshNameOf(Type type);

// The canonical text of a `!mpmd....` type (the reader's type syntax for the
// dialect), or an error saying what is malformed.
absl::StatusOr<std::string> canonicalTypeText(std::string_view text);

// OK if the mesh tensor's sharding is valid on `mesh` for its global shape,
// dimensions divisible by their sharded sizes (the reference's
// verifyForMesh).
absl::Status verifyForMesh(const MeshTensorType& type, const Mesh& mesh);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_MPMD_MESH_TENSOR_H_
