#include "shardkit/factor_propagation/aggressive_factor_propagation.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "shardkit/support/checked_math.h"

namespace shardkit {
namespace {

struct SourceTensor {
  int64_t index = -1;
  int64_t size = -1;
};

// Per factor, the largest tensor already sharded along (a list that starts
// with) the factor's compatible axes.
std::vector<SourceTensor> sourceTensors(
    const ShardingProjection& projection,
    absl::Span<const AxisList> axes_per_factor,
    absl::Span<const int64_t> factor_sizes) {
  std::vector<SourceTensor> sources(factor_sizes.size());
  for (int64_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    int64_t tensor_size = 1;
    for (size_t f = 0; f < tensor.factors.size(); ++f) {
      if (tensor.factors[f].mapped) {
        tensor_size = saturatingMul(tensor_size, factor_sizes[f]);
      }
    }
    for (size_t f = 0; f < tensor.factors.size(); ++f) {
      const FactorSharding& sharding = tensor.factors[f];
      if (!sharding.mapped || axes_per_factor[f].empty()) continue;
      if (axisListPrefixStatus(axes_per_factor[f], sharding.axes) ==
          PrefixStatus::kNotAPrefix) {
        continue;
      }
      if (tensor_size > sources[f].size)
        sources[f] = SourceTensor{t, tensor_size};
    }
  }
  return sources;
}

// What `tensor` takes along `factor`: its compatible axes without the
// conflicts within the factor, and, if that still extends the tensor, without
// the axes its other factors use now. Empty if nothing.
AxisList propagatedAxes(const TensorFactorShardings& tensor, int64_t factor,
                        const AxisList& compatible, int64_t factor_size,
                        bool conservative) {
  const FactorSharding* sharding = tensor.find(factor);
  if (sharding == nullptr) return {};
  // Removing conflicts only shortens `compatible` (or cuts its last axis to
  // a prefix), so a tensor it doesn't extend now can't be extended after:
  // skip the work (the common case once the tensor has its axes).
  if (!isStrictPrefix(sharding->axes, compatible)) return {};
  AxisList axes = compatible;
  truncateAxesByRemovingConflicts(
      axes,
      [&](const ResolvedAxis& axis, int64_t prev_sharded_size) {
        return compatiblePrefixWithinFactor(axis, tensor, *sharding,
                                            prev_sharded_size, factor_size);
      },
      conservative);
  if (!isStrictPrefix(sharding->axes, axes)) return {};
  truncateAxesByRemovingConflicts(
      axes,
      [&](const ResolvedAxis& axis, int64_t) {
        return compatiblePrefixAcrossFactors(axis, tensor, factor);
      },
      conservative);
  return axes;
}

}  // namespace

std::vector<int64_t> aggressiveFactorOrder(
    const ShardingProjection& projection,
    absl::Span<const AxisList> axes_per_factor,
    absl::Span<const int64_t> factor_sizes, bool is_elementwise) {
  std::vector<SourceTensor> sources =
      sourceTensors(projection, axes_per_factor, factor_sizes);
  std::vector<int64_t> order(factor_sizes.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int64_t f) {
    int64_t sharded = is_elementwise ? totalSize(axes_per_factor[f]) : 0;
    return std::make_tuple(-sources[f].size, -sharded, sources[f].index, f);
  };
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return key(a) < key(b); });
  return order;
}

namespace {

TensorFlags propagateAggressively(
    ShardingProjection& projection,
    absl::Span<const PropagationDirection> directions,
    absl::Span<const int64_t> factor_sizes,
    const FactorPropagationOptions& options) {
  TensorFlags updated(projection.numTensors(), false);
  std::vector<AxisList> axes_per_factor(projection.numFactors());
  bool any = false;
  for (int64_t f = 0; f < projection.numFactors(); ++f) {
    axes_per_factor[f] = compatibleMajorAxes(projection, f, directions[f]);
    any = any || !axes_per_factor[f].empty();
  }
  if (!any) return updated;
  std::vector<int64_t> order = aggressiveFactorOrder(
      projection, axes_per_factor, factor_sizes, options.is_elementwise);

  auto expandTensor = [&](int64_t t) {
    for (int64_t f : order) {
      AxisList axes =
          propagatedAxes(projection.tensor(t), f, axes_per_factor[f],
                         factor_sizes[f], options.conservative);
      if (axes.empty()) continue;
      if (options.is_elementwise && t < projection.numOperands()) {
        // Don't give an operand more than a result could take.
        for (const TensorFactorShardings& result : projection.results()) {
          const FactorSharding* sharding = result.find(f);
          if (sharding != nullptr && isStrictPrefix(sharding->axes, axes)) {
            axes = sharding->axes;
          }
        }
      }
      if (projection.mutableTensor(t).expandShardingAxes(f, axes)) {
        updated[t] = true;
      }
    }
  };
  for (int64_t t = projection.numOperands(); t < projection.numTensors(); ++t) {
    expandTensor(t);
  }
  for (int64_t t = 0; t < projection.numOperands(); ++t) expandTensor(t);
  return updated;
}

}  // namespace

const FactorPropagation& aggressiveFactorPropagation() {
  static const auto* strategy =
      new FactorPropagationFunction(&propagateAggressively);
  return *strategy;
}

}  // namespace shardkit
