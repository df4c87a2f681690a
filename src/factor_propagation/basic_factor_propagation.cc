#include "shardkit/factor_propagation/basic_factor_propagation.h"

#include <numeric>

namespace shardkit {
namespace {

// Folds the factor axes `next` of one more tensor into the compatible axes
// `result` (see compatibleMajorAxes). Returns whether later tensors may
// still lengthen the list: false once a conflict cut it, or if `can_expand`
// was false (then `result` never grows past its current axes).
bool foldCompatibleAxes(AxisList& result, AxisSpan next, bool can_expand) {
  size_t i = 0;
  for (; i < result.size() && i < next.size(); ++i) {
    const ResolvedAxis old_axis = result[i];
    const ResolvedAxis& new_axis = next[i];
    if (old_axis.axis != new_axis.axis) {
      result.resize(i);
      return false;
    }
    if (old_axis == new_axis) continue;
    if (isPrefixOf(new_axis, old_axis)) {
      if (i + 1 < next.size()) {
        // The new list goes on after a strict part of the old axis, which
        // can only conflict: keep the common part and stop.
        result[i] = new_axis;
        result.resize(i + 1);
        return false;
      }
      // The new list may still grow into the old axis: keep the old one.
    } else if (isPrefixOf(old_axis, new_axis)) {
      if (!can_expand || i + 1 < result.size()) {
        result.resize(i + 1);
        return false;
      }
      result[i] = new_axis;
    } else {
      // Different pieces of the same axis, e.g. "a":(1)2 and "a":(2)2.
      result.resize(i);
      return false;
    }
  }
  if (can_expand && i < next.size()) {
    result.insert(result.end(), next.begin() + i, next.end());
  }
  return can_expand;
}

std::optional<ResolvedAxis> compatiblePrefix(
    const ResolvedAxis& axis, const TensorFactorShardings& tensor,
    int64_t factor, int64_t prev_sharded_size, int64_t factor_size) {
  std::optional<ResolvedAxis> result =
      compatiblePrefixAcrossFactors(axis, tensor, factor);
  if (!result) return std::nullopt;
  const FactorSharding* sharding = tensor.find(factor);
  // A tensor that doesn't map the factor can't receive it, so its
  // replicated axes don't matter; only other factors' axes do.
  if (sharding == nullptr) return result;
  return compatiblePrefixWithinFactor(*result, tensor, *sharding,
                                      prev_sharded_size, factor_size);
}

}  // namespace

AxisList compatibleMajorAxes(const ShardingProjection& projection,
                             int64_t factor, PropagationDirection direction) {
  AxisList result;
  if (direction == PropagationDirection::kNone) return result;
  bool backward = direction == PropagationDirection::kBackward;
  absl::Span<const TensorFactorShardings> first =
      backward ? projection.results() : projection.operands();
  absl::Span<const TensorFactorShardings> second =
      backward ? projection.operands() : projection.results();
  bool can_expand = true;
  for (const TensorFactorShardings& tensor : first) {
    if (const FactorSharding* sharding = tensor.find(factor)) {
      can_expand = foldCompatibleAxes(result, sharding->axes, can_expand);
    }
  }
  // In one direction only, the other side may cut the list but not grow it.
  if (direction != PropagationDirection::kBoth) can_expand = false;
  for (const TensorFactorShardings& tensor : second) {
    if (const FactorSharding* sharding = tensor.find(factor)) {
      can_expand = foldCompatibleAxes(result, sharding->axes, can_expand);
    }
  }
  return result;
}

std::optional<ResolvedAxis> compatiblePrefixAcrossFactors(
    const ResolvedAxis& axis, const TensorFactorShardings& tensor,
    int64_t factor) {
  std::optional<ResolvedAxis> result = axis;
  // Only factors with an axis on the same mesh axis can conflict; in factor
  // order, as the full scan visits them.
  auto visit = [&](int64_t other) {
    const FactorSharding& sharding = tensor.factors[other];
    if (other == factor || !sharding.mapped) return true;
    result = prefixWithoutOverlap(*result, sharding.overflow_axes);
    if (!result) return false;
    result = prefixWithoutOverlap(*result, sharding.axes);
    return result.has_value();
  };
  if (const std::vector<int64_t>* users = tensor.factorsUsingAxis(axis.axis)) {
    for (int64_t other : *users) {
      if (!visit(other)) return std::nullopt;
    }
    return result;
  }
  for (int64_t other = 0; other < static_cast<int64_t>(tensor.factors.size());
       ++other) {
    if (!visit(other)) return std::nullopt;
  }
  return result;
}

std::optional<ResolvedAxis> compatiblePrefixWithinFactor(
    const ResolvedAxis& axis, const TensorFactorShardings& tensor,
    const FactorSharding& sharding, int64_t prev_sharded_size,
    int64_t factor_size) {
  std::optional<ResolvedAxis> result =
      prefixWithoutOverlap(axis, tensor.replicated_axes);
  if (!result) return std::nullopt;
  result = prefixWithoutOverlap(*result, tensor.unreduced_axes);
  if (!result) return std::nullopt;
  for (const ResolvedAxis& existing : sharding.axes) {
    if (contains(existing, *result)) return result;  // Already there.
  }
  // Adding the axis requires an open factor without overflow axes that is
  // minor-most or still divisible by (a part of) the axis.
  if (!sharding.is_closed && sharding.overflow_axes.empty()) {
    if (sharding.is_minor_most) return result;
    if (prev_sharded_size > 0 && factor_size % prev_sharded_size == 0) {
      int64_t gcd = std::gcd(factor_size / prev_sharded_size, result->size);
      if (gcd == result->size) return result;
      if (gcd != 1) {
        return ResolvedAxis{result->axis, false, result->pre_size, gcd};
      }
    }
  }
  // The tensor can still keep its own last axis if it's a prefix of `axis`
  // (all earlier axes are shared by construction).
  if (!sharding.axes.empty() && isPrefixOf(sharding.axes.back(), *result)) {
    return sharding.axes.back();
  }
  return std::nullopt;
}

AxisList compatibleMajorShardingAxes(const ShardingProjection& projection,
                                     int64_t factor,
                                     PropagationDirection direction,
                                     int64_t factor_size, bool conservative) {
  AxisList axes = compatibleMajorAxes(projection, factor, direction);
  truncateAxesByRemovingConflicts(
      axes,
      [&](const ResolvedAxis& axis,
          int64_t prev_sharded_size) -> std::optional<ResolvedAxis> {
        std::optional<ResolvedAxis> result = axis;
        for (const TensorFactorShardings& tensor : projection.tensors()) {
          result = compatiblePrefix(*result, tensor, factor, prev_sharded_size,
                                    factor_size);
          if (!result) return std::nullopt;
        }
        return result;
      },
      conservative);
  return axes;
}

namespace {

TensorFlags propagateBasic(ShardingProjection& projection,
                           absl::Span<const PropagationDirection> directions,
                           absl::Span<const int64_t> factor_sizes,
                           const FactorPropagationOptions& options) {
  TensorFlags updated(projection.numTensors(), false);
  for (int64_t factor = 0; factor < projection.numFactors(); ++factor) {
    AxisList axes =
        compatibleMajorShardingAxes(projection, factor, directions[factor],
                                    factor_sizes[factor], options.conservative);
    if (axes.empty()) continue;  // Nothing can be expanded to no axes.
    for (int64_t t = 0; t < projection.numTensors(); ++t) {
      if (projection.mutableTensor(t).expandShardingAxes(factor, axes)) {
        updated[t] = true;
      }
    }
  }
  return updated;
}

}  // namespace

const FactorPropagation& basicFactorPropagation() {
  static const auto* strategy = new FactorPropagationFunction(&propagateBasic);
  return *strategy;
}

}  // namespace shardkit
