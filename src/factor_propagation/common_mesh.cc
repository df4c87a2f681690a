#include "shardkit/factor_propagation/common_mesh.h"

#include "absl/status/status.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

bool sameMesh(const Mesh& a, const Mesh& b, bool ignore_device_ids) {
  return ignore_device_ids ? a.axes == b.axes : a.sameDevicesAndAxes(b);
}

}  // namespace

absl::StatusOr<std::optional<CommonMesh>> findCommonMesh(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const MeshTable& meshes,
    bool ignore_device_ids) {
  std::optional<CommonMesh> common;
  for (absl::Span<const TensorSharding* const> list : {operands, results}) {
    for (const TensorSharding* sharding : list) {
      if (sharding == nullptr) continue;
      const Mesh* mesh = meshes.resolve(*sharding);
      if (mesh == nullptr) {
        return absl::InvalidArgumentError(
            toAbsl(strCat("unknown mesh @", sharding->meshName(),
                          " in sharding ", toString(*sharding))));
      }
      // An empty mesh gives way to any other.
      if (!common || common->mesh->empty()) {
        common = CommonMesh{mesh, sharding->mesh};
        continue;
      }
      if (mesh->empty() || mesh == common->mesh) continue;
      if (!sameMesh(*mesh, *common->mesh, ignore_device_ids)) {
        return std::optional<CommonMesh>();
      }
      if (ignore_device_ids && mesh->device_ids.empty() &&
          !common->mesh->device_ids.empty()) {
        common = CommonMesh{mesh, sharding->mesh};  // Prefer the default order.
      }
    }
  }
  return common;
}

}  // namespace shardkit
