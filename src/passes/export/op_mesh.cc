#include "src/passes/export/op_mesh.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/factor_propagation/common_mesh.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::passes_internal {
namespace {

// Among the shardings that shard something, the mesh used most often (the
// first to reach the count); `fallback` if none does.
OpMesh mostCommonMesh(absl::Span<const TensorSharding* const> shardings,
                      const MeshTable& meshes, OpMesh fallback) {
  // Usually every such sharding is on one mesh: nothing to count.
  const TensorSharding* first = nullptr;
  bool one_mesh = true;
  for (const TensorSharding* s : shardings) {
    if (s == nullptr || s->isFullyReplicated()) continue;
    if (first == nullptr) {
      first = s;
    } else if (!(s->mesh == first->mesh)) {
      one_mesh = false;
      break;
    }
  }
  if (first == nullptr) return fallback;
  if (one_mesh) return OpMesh{meshes.resolve(*first), first->mesh};
  absl::flat_hash_map<std::string, int64_t> counts;
  int64_t best_count = 0;
  OpMesh best = std::move(fallback);
  for (const TensorSharding* s : shardings) {
    if (s == nullptr || s->isFullyReplicated()) continue;
    int64_t count = ++counts[toString(s->mesh)];
    if (count > best_count) {
      best_count = count;
      best = OpMesh{meshes.resolve(*s), s->mesh};
    }
  }
  return best;
}

}  // namespace

absl::StatusOr<std::optional<OpMesh>> opMesh(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const MeshTable& meshes) {
  // Usually every sharding names one mesh: then it is the op's (unless it is
  // maximal or unknown, which the general path below reports).
  const TensorSharding* first = nullptr;
  bool one_mesh = true;
  for (absl::Span<const TensorSharding* const> list : {operands, results}) {
    for (const TensorSharding* s : list) {
      if (s == nullptr) continue;
      if (first == nullptr) {
        first = s;
      } else if (!(s->mesh == first->mesh)) {
        one_mesh = false;
      }
    }
  }
  if (first == nullptr) return std::nullopt;
  if (one_mesh) {
    const Mesh* mesh = meshes.resolve(*first);
    if (mesh != nullptr) {
      if (mesh->isMaximal()) return std::nullopt;
      return OpMesh{mesh, first->mesh};
    }
  }
  SK_ASSIGN_OR_RETURN(std::optional<CommonMesh> common,
                      findCommonMesh(operands, results, meshes,
                                     /*ignore_device_ids=*/true));
  if (!common || common->mesh->isMaximal()) return std::nullopt;
  std::vector<const TensorSharding*> all(operands.begin(), operands.end());
  all.insert(all.end(), results.begin(), results.end());
  OpMesh fallback{common->mesh, common->mesh_or_ref};
  OpMesh chosen = mostCommonMesh(all, meshes, fallback);
  if (chosen.mesh == nullptr) return std::nullopt;
  return chosen;
}

}  // namespace shardkit::passes_internal
