#include "shardkit/core/tensor_sharding.h"

#include "shardkit/core/axis_ref_list.h"

namespace shardkit {

int64_t DimensionSharding::shardedSize(const Mesh& mesh) const {
  return axesProduct(axes, mesh);
}

TensorSharding TensorSharding::fullyOpen(MeshOrRef mesh, int64_t rank) {
  return TensorSharding(std::move(mesh), std::vector<DimensionSharding>(
                                             rank, DimensionSharding::open()));
}

TensorSharding TensorSharding::fullyClosed(MeshOrRef mesh, int64_t rank) {
  return TensorSharding(
      std::move(mesh),
      std::vector<DimensionSharding>(rank, DimensionSharding::closed()));
}

bool TensorSharding::isFullyReplicated() const {
  if (!replicated_axes.empty() || !unreduced_axes.empty()) return false;
  for (const DimensionSharding& dim : dim_shardings) {
    if (!dim.axes.empty()) return false;
  }
  return true;
}

bool TensorSharding::isFullyClosedAndEmpty() const {
  if (!isFullyReplicated()) return false;
  for (const DimensionSharding& dim : dim_shardings) {
    if (!dim.is_closed) return false;
  }
  return true;
}

std::vector<AxisRef> TensorSharding::allAxes() const {
  std::vector<AxisRef> axes;
  forEachShardingAxis([&](const AxisRef& a) { axes.push_back(a); });
  axes.insert(axes.end(), replicated_axes.begin(), replicated_axes.end());
  axes.insert(axes.end(), unreduced_axes.begin(), unreduced_axes.end());
  return axes;
}

}  // namespace shardkit
