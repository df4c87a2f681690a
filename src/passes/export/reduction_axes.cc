// The axes explicit reshards all-reduce over (reduction_axes.h).
#include "src/passes/export/reduction_axes.h"

#include <optional>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/resolved_axis.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"

namespace shardkit::passes_internal {

absl::StatusOr<AxesPerFactor> reductionAxesIfUnreduced(
    Op op, const OpShardingRule& rule, const ShardingProjection& projection) {
  AxesPerFactor axes(rule.numFactors());
  if (op.numResults() == 0) return axes;
  std::optional<TensorSharding> scratch;
  const TensorSharding* first = findSharding(op.result(0), scratch);
  if (first == nullptr || first->unreduced_axes.empty()) return axes;
  for (int64_t f : rule.reduction_factors) {
    bool seen = false;
    for (const TensorFactorShardings& operand : projection.operands()) {
      const FactorSharding* factor = operand.find(f);
      if (factor == nullptr) continue;
      if (seen && factor->axes != axes[f]) {
        return opError(op,
                       "has unreduced results but its operands are sharded "
                       "differently along a reduction factor");
      }
      axes[f] = factor->axes;
      seen = true;
    }
  }
  return axes;
}

AxisRefVector allReduceAxes(Op op, const OpShardingRule& rule,
                            const AxesPerFactor& common, const Mesh& mesh) {
  if (op.numResults() == 0) return {};
  AxisList reduction;
  for (int64_t f : rule.reduction_factors) {
    reduction.insert(reduction.end(), common[f].begin(), common[f].end());
  }
  if (reduction.empty()) return {};
  AxisRefVector axes = toAxisRefs(reduction, mesh);
  std::optional<TensorSharding> scratch;
  if (const TensorSharding* first = findSharding(op.result(0), scratch)) {
    axes = axisSetDifference(axes, first->unreduced_axes, mesh);
  }
  if (!axes.empty()) sortAndMergeAxes(axes, mesh);
  return axes;
}

}  // namespace shardkit::passes_internal
