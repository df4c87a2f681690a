// The mesh of an op in -sdy-insert-explicit-reshards: the one its reshards
// and all-reduces are expressed in. Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_OP_MESH_H_
#define SHARDKIT_SRC_PASSES_EXPORT_OP_MESH_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit::passes_internal {

// The mesh the op's reshards are expressed in.
struct OpMesh {
  const Mesh* mesh = nullptr;
  MeshOrRef ref;
};

// The mesh of the op with shardings `operands` and `results` (null: none):
// the shardings' common mesh ignoring device order, then the most common
// device order; nullopt if there is none or it is maximal. An error for a
// sharding on an unknown mesh.
absl::StatusOr<std::optional<OpMesh>> opMesh(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const MeshTable& meshes);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_OP_MESH_H_
