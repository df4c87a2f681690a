#include "shardkit/core/canonicalize.h"

#include "shardkit/core/axis_ref_list.h"

namespace shardkit {

TensorSharding canonicalize(const TensorSharding& sharding, const Mesh& mesh) {
  TensorSharding result = sharding;
  for (DimensionSharding& dim : result.dim_shardings) {
    mergeAdjacentSubAxes(dim.axes, mesh);
  }
  sortAndMergeAxes(result.replicated_axes, mesh);
  sortAndMergeAxes(result.unreduced_axes, mesh);
  return result;
}

}  // namespace shardkit
