// FactorPropagation: a strategy that, given an op's ShardingProjection, picks
// for every factor the axes to propagate and expands the tensors' factor
// shardings with them (step 2 of the three of docs/propagation.md: project,
// propagate in factor space, project back).
#ifndef SHARDKIT_FACTOR_PROPAGATION_FACTOR_PROPAGATION_H_
#define SHARDKIT_FACTOR_PROPAGATION_FACTOR_PROPAGATION_H_

#include <cstdint>

#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/export.h"
#include "shardkit/factor_propagation/sharding_projection.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct FactorPropagationOptions {
  // Never propagate a sub-axis: an axis list is cut before the first axis
  // that would only propagate partially.
  bool conservative = false;
  // The op is elementwise. The aggressive strategy then prefers the most
  // sharded factor on conflicts, and doesn't propagate sideways to an operand
  // what the results can't take.
  bool is_elementwise = false;
};

class FactorPropagation {
 public:
  virtual ~FactorPropagation() = default;

  // Propagates along every factor f in `directions[f]` (one per factor of
  // the projection; NONE leaves the factor alone). `factor_sizes` are the
  // rule's. Returns which tensors (operands first) were expanded.
  virtual TensorFlags propagate(
      ShardingProjection& projection,
      absl::Span<const PropagationDirection> directions,
      absl::Span<const int64_t> factor_sizes, const Mesh& mesh,
      const FactorPropagationOptions& options) const = 0;
};

// A strategy that is one function of the projection (the built-in ones: they
// do not look at the mesh).
class FactorPropagationFunction final : public FactorPropagation {
 public:
  using Fn = TensorFlags (*)(ShardingProjection& projection,
                             absl::Span<const PropagationDirection> directions,
                             absl::Span<const int64_t> factor_sizes,
                             const FactorPropagationOptions& options);
  explicit constexpr FactorPropagationFunction(Fn fn) : fn_(fn) {}

  TensorFlags propagate(
      ShardingProjection& projection,
      absl::Span<const PropagationDirection> directions,
      absl::Span<const int64_t> factor_sizes, const Mesh& /*mesh*/,
      const FactorPropagationOptions& options) const override {
    return fn_(projection, directions, factor_sizes, options);
  }

 private:
  Fn fn_;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_FACTOR_PROPAGATION_H_
