// The mesh an op propagates in: the one mesh shared by all its operand and
// result shardings.
#ifndef SHARDKIT_FACTOR_PROPAGATION_COMMON_MESH_H_
#define SHARDKIT_FACTOR_PROPAGATION_COMMON_MESH_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct CommonMesh {
  const Mesh* mesh = nullptr;  // Owned by the table or the sharding.
  MeshOrRef mesh_or_ref;       // What new shardings refer to.
};

// The mesh of the given shardings (null = missing, skipped), operands first.
// An empty mesh (`<[]>`) gives way to any other; otherwise all meshes must
// have the same axes and device order (or the same axes, if
// `ignore_device_ids`, preferring one with the default order). nullopt if
// there is no sharding or they disagree (e.g. a maximal mesh and a mesh with
// axes); InvalidArgument if a mesh name isn't in `meshes`.
absl::StatusOr<std::optional<CommonMesh>> findCommonMesh(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const MeshTable& meshes,
    bool ignore_device_ids = false);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_COMMON_MESH_H_
