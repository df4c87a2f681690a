// The basic strategy: propagate along every factor only the longest prefix of
// axes that every tensor agrees on and that conflicts with nothing ("the
// longest compatible major sharding axes" of docs/propagation.md). It never
// resolves a conflict: a conflicting axis and everything minor to it stay where
// they are.
//
// Conflicts, checked for every tensor mapping the factor ("within"):
//   - the axis overlaps the tensor's replicated or unreduced axes;
//   - the tensor doesn't shard the factor along the axis yet, and the factor
//     is closed, has overflow axes, or is not minor-most and the axis doesn't
//     divide what is left of the factor (a dividing part of the axis, i.e. a
//     sub-axis, may still propagate);
// and for every tensor, mapping the factor or not ("across"):
//   - the axis overlaps (or can't co-exist with) an axis or overflow axis of
//     another factor of the tensor.
// The direction decides which tensors may lengthen the list: operands
// (FORWARD), results (BACKWARD), both (BOTH); the others only cut it short.
#ifndef SHARDKIT_FACTOR_PROPAGATION_BASIC_FACTOR_PROPAGATION_H_
#define SHARDKIT_FACTOR_PROPAGATION_BASIC_FACTOR_PROPAGATION_H_

#include <cstdint>
#include <optional>

#include "shardkit/export.h"
#include "shardkit/factor_propagation/factor_propagation.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The longest prefix of axes along `factor` that all tensors mapping it agree
// on, ignoring conflicts: each tensor either has this prefix, has a prefix of
// it and nothing more, or doesn't map the factor. Empty for NONE.
AxisList compatibleMajorAxes(const ShardingProjection& projection,
                             int64_t factor, PropagationDirection direction);

// The largest prefix of `axis` that doesn't overlap the axes or overflow axes
// of any factor of `tensor` other than `factor`.
std::optional<ResolvedAxis> compatiblePrefixAcrossFactors(
    const ResolvedAxis& axis, const TensorFactorShardings& tensor,
    int64_t factor);

// The largest prefix of `axis` that `tensor` can take along its factor
// sharding `sharding` (see the conflicts above). `prev_sharded_size` is the
// product of the sizes of the axes before `axis` in the list.
std::optional<ResolvedAxis> compatiblePrefixWithinFactor(
    const ResolvedAxis& axis, const TensorFactorShardings& tensor,
    const FactorSharding& sharding, int64_t prev_sharded_size,
    int64_t factor_size);

// Walks `axes` major to minor, replacing each axis by
// `remove_conflicts(axis, prev_sharded_size)`: stops before the first axis
// with no compatible prefix (or, if `conservative`, whose prefix is a
// sub-axis), and after the first axis that had to be shortened.
template <typename RemoveConflicts>
void truncateAxesByRemovingConflicts(AxisList& axes,
                                     RemoveConflicts&& remove_conflicts,
                                     bool conservative) {
  int64_t prev_sharded_size = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<ResolvedAxis> axis =
        remove_conflicts(axes[i], prev_sharded_size);
    if (!axis || (conservative && axis->isSubAxis())) {
      axes.resize(i);
      return;
    }
    if (*axis != axes[i]) {
      axes[i] = *axis;
      axes.resize(i + 1);
      return;
    }
    prev_sharded_size *= axis->size;
  }
}

// compatibleMajorAxes with every conflict, in every tensor, removed: the
// axes the basic strategy propagates along `factor`.
AxisList compatibleMajorShardingAxes(const ShardingProjection& projection,
                                     int64_t factor,
                                     PropagationDirection direction,
                                     int64_t factor_size, bool conservative);

// The basic strategy: factor by factor (in index order, each seeing the
// previous expansions), expands every tensor to compatibleMajorShardingAxes.
const FactorPropagation& basicFactorPropagation();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_BASIC_FACTOR_PROPAGATION_H_
