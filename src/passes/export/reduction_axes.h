// The axes -sdy-insert-explicit-reshards all-reduces an op's results over:
// those of its sharded reduction factors. Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_REDUCTION_AXES_H_
#define SHARDKIT_SRC_PASSES_EXPORT_REDUCTION_AXES_H_

#include "absl/status/statusor.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/factor_propagation/explicit_reshards.h"
#include "shardkit/factor_propagation/sharding_projection.h"
#include "shardkit/ir/graph.h"

namespace shardkit::passes_internal {

// Without the full version only results with unreduced axes are
// all-reduced: over the axes of the reduction factors, on which the
// operands must agree (an error at `op` otherwise). Empty axes per factor
// when the first result has no unreduced axes.
absl::StatusOr<AxesPerFactor> reductionAxesIfUnreduced(
    Op op, const OpShardingRule& rule, const ShardingProjection& projection);

// The axes the results of `op` are all-reduced over: those of its reduction
// factors in `common` that its first result does not keep unreduced, sorted
// and merged; none if it has no results.
AxisRefVector allReduceAxes(Op op, const OpShardingRule& rule,
                            const AxesPerFactor& common, const Mesh& mesh);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_REDUCTION_AXES_H_
