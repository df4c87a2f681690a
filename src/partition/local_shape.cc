// Local shapes of sharded tensors (local_shape.h).
#include "shardkit/partition/local_shape.h"

#include "shardkit/core/tensor_shape.h"

namespace shardkit::partition {

std::optional<std::vector<int64_t>> localShape(absl::Span<const int64_t> shape,
                                               const TensorSharding& sharding,
                                               const Mesh& mesh) {
  std::vector<int64_t> local(shape.begin(), shape.end());
  if (sharding.dim_shardings.empty()) return local;
  if (sharding.dim_shardings.size() != shape.size()) return std::nullopt;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == kDynamicSize) continue;
    const int64_t shards = sharding.dim_shardings[i].shardedSize(mesh);
    if (shards <= 0 || shape[i] % shards != 0) return std::nullopt;
    local[i] = shape[i] / shards;
  }
  return local;
}

Type localType(TypeContext& types, Type global, const TensorSharding* sharding,
               const Mesh* mesh) {
  if (sharding == nullptr || mesh == nullptr || !global.isRankedTensor()) {
    return global;
  }
  std::optional<std::vector<int64_t>> shape =
      localShape(global.shape(), *sharding, *mesh);
  if (!shape) return Type();
  if (absl::MakeConstSpan(*shape) == global.shape()) return global;
  return types.rankedTensor(*shape, global.elementType(), global.encoding());
}

}  // namespace shardkit::partition
