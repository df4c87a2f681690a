// Shardings of mesh tensors (sharding_utils.h).
#include "src/mpmd/sharding_utils.h"

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/ir/module.h"

namespace shardkit::mpmd::mpmd_internal {

void setTypeSharding(Value value, const TensorSharding* sharding) {
  if (!sharding) return;
  std::optional<MeshTensorType> type = MeshTensorType::of(value.type());
  if (!type) return;
  value.setType(type->withSharding(sharding).toType(value.module()->types()));
}

bool isReplicated(const TensorSharding* sharding) {
  if (!sharding) return true;
  for (const DimensionSharding& dim : sharding->dim_shardings) {
    if (!dim.axes.empty()) return false;
  }
  return sharding->unreduced_axes.empty();
}

bool equivalentShardings(const TensorSharding* a, const TensorSharding* b) {
  if (!a || !b) return isReplicated(a) && isReplicated(b);
  if (a->meshName() != b->meshName() || a->rank() != b->rank() ||
      !(a->unreduced_axes == b->unreduced_axes)) {
    return false;
  }
  for (int64_t i = 0; i < a->rank(); ++i) {
    if (!(a->dim_shardings[i].axes == b->dim_shardings[i].axes)) return false;
  }
  return true;
}

}  // namespace shardkit::mpmd::mpmd_internal
