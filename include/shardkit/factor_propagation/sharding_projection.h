// ShardingProjection: the shardings of an op's operands and results seen per
// factor of its OpShardingRule instead of per dimension (docs/propagation.md's
// tables: one row per tensor, one column per factor, plus the tensor's
// replicated axes).
//
// Projecting a dimension sharding walks its axes major to minor and hands
// them to the dimension's factors major to minor: a factor takes axes (or a
// sub-axis piece of an axis, splitting it at the factor boundary) while their
// size shares a divisor with what is left of the factor; the minor-most factor
// takes everything that remains. When an axis doesn't divide a non-minor-most
// factor, it and all axes after it become the factor's "overflow" axes, and
// the factor after it is closed: they can't be expressed per factor, but they
// must survive the round trip back to dimensions unchanged.
//
// Projecting back concatenates each dimension's factor axes, merging
// consecutive sub-axes at factor boundaries, and stops at the first factor
// that isn't fully sharded (any axis after it would need a strided view).
// Like the reference, the inverse drops dimension priorities.
#ifndef SHARDKIT_FACTOR_PROPAGATION_SHARDING_PROJECTION_H_
#define SHARDKIT_FACTOR_PROPAGATION_SHARDING_PROJECTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/factor_propagation/resolved_axis.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// One flag per tensor of an op, operands first, then results.
using TensorFlags = absl::InlinedVector<bool, 8>;

// The axes along which one tensor shards one factor.
struct FactorSharding {
  AxisList axes;
  // Axes of the dimension that couldn't be assigned to this (non-minor-most)
  // factor because the first of them doesn't divide what is left of it; kept
  // so they can be put back when projecting to dimensions.
  AxisList overflow_axes;
  // No axis may be added (closed dimension, or a factor after an overflow).
  bool is_closed = false;
  // Last factor of its dimension: it may be sharded non-divisibly.
  bool is_minor_most = false;
  // The tensor maps this factor. Unmapped entries are placeholders.
  bool mapped = false;

  friend bool operator==(const FactorSharding&,
                         const FactorSharding&) = default;
};

// One row of the table: a tensor's sharding per factor, plus its replicated
// and unreduced axes.
struct TensorFactorShardings {
  // Indexed by factor; entries of factors the tensor doesn't map have
  // `mapped == false`.
  std::vector<FactorSharding> factors;
  AxisList replicated_axes;
  AxisList unreduced_axes;
  ReductionKind unreduced_kind = ReductionKind::kSum;

  // The sharding of `factor`, or null if the tensor doesn't map it.
  const FactorSharding* find(int64_t factor) const {
    const FactorSharding& f = factors[factor];
    return f.mapped ? &f : nullptr;
  }
  FactorSharding* find(int64_t factor) {
    FactorSharding& f = factors[factor];
    return f.mapped ? &f : nullptr;
  }

  // Replaces the axes of `factor` by `new_axes` if the tensor maps it and its
  // current axes are a strict prefix of `new_axes`. Returns whether it did.
  bool expandShardingAxes(int64_t factor, AxisSpan new_axes);
  // Replaces the axes and overflow axes of `factor` if the tensor maps it and
  // either differs. Returns whether it did.
  bool updateShardingAxes(int64_t factor, AxisSpan new_axes,
                          AxisSpan new_overflow_axes);

  // Projects back to dimension shardings along `mapping` (see the file
  // comment), on `mesh`, naming the mesh `mesh_ref`.
  TensorSharding toTensorSharding(const TensorMapping& mapping,
                                  absl::Span<const int64_t> factor_sizes,
                                  const Mesh& mesh,
                                  const MeshOrRef& mesh_ref) const;
  // Product of the sizes of all factor and overflow axes.
  int64_t shardingSize() const;

  // For a tensor of many factors: the factors whose axes or overflow axes
  // use mesh axis `axis`, ascending (possibly some that no longer do), so
  // that the conflicts of one axis are found without scanning every factor
  // (which would make an op of rank n cost n^2). Null for a tensor of few
  // factors: scan them. Kept up to date by expandShardingAxes and
  // updateShardingAxes; clearAxisIndex() after changing `factors` directly.
  const std::vector<int64_t>* factorsUsingAxis(int32_t axis) const;
  void clearAxisIndex() { factors_by_axis_.reset(); }

  friend bool operator==(const TensorFactorShardings& a,
                         const TensorFactorShardings& b) {
    return a.factors == b.factors && a.replicated_axes == b.replicated_axes &&
           a.unreduced_axes == b.unreduced_axes &&
           a.unreduced_kind == b.unreduced_kind;
  }

 private:
  // factorsUsingAxis's index, built on first use.
  mutable std::optional<absl::flat_hash_map<int32_t, std::vector<int64_t>>>
      factors_by_axis_;
};

struct ProjectionOptions {
  // A missing sharding projects as all dimensions closed (else open).
  bool closed_if_missing = false;
  // User-priority round: a dimension whose priority (default 0) is above it
  // projects as closed and empty, and its axes count as replicated, so that
  // nothing propagates into or out of it in this round (the reference's
  // docs/sharding_representation.md).
  std::optional<int64_t> priority_round;
};

class ShardingProjection {
 public:
  ShardingProjection() = default;

  // Projects the shardings (null = missing) of an op's operands and results
  // onto the factors of `rule`, over `mesh`. InvalidArgument if the counts or
  // ranks don't match the rule, an axis isn't in the mesh, or a factor index
  // or size is out of range.
  static absl::StatusOr<ShardingProjection> build(
      absl::Span<const TensorSharding* const> operands,
      absl::Span<const TensorSharding* const> results,
      const OpShardingRule& rule, const Mesh& mesh,
      const ProjectionOptions& options = {});
  // Same as build(), reusing this object's storage.
  absl::Status assign(absl::Span<const TensorSharding* const> operands,
                      absl::Span<const TensorSharding* const> results,
                      const OpShardingRule& rule, const Mesh& mesh,
                      const ProjectionOptions& options = {});
  // Every tensor mapping a factor is sharded by `axes_per_factor[factor]`,
  // closed, without overflow axes.
  static ShardingProjection fromAxesPerFactor(
      absl::Span<const AxisList> axes_per_factor, const OpShardingRule& rule);

  int64_t numOperands() const { return num_operands_; }
  int64_t numResults() const {
    return static_cast<int64_t>(tensors_.size()) - num_operands_;
  }
  int64_t numTensors() const { return static_cast<int64_t>(tensors_.size()); }
  int64_t numFactors() const { return num_factors_; }

  // Tensors are indexed operands first, then results.
  const TensorFactorShardings& tensor(int64_t index) const {
    return tensors_[index];
  }
  TensorFactorShardings& mutableTensor(int64_t index) {
    return tensors_[index];
  }
  const TensorFactorShardings& operand(int64_t i) const { return tensors_[i]; }
  const TensorFactorShardings& result(int64_t i) const {
    return tensors_[num_operands_ + i];
  }
  absl::Span<const TensorFactorShardings> tensors() const { return tensors_; }
  absl::Span<const TensorFactorShardings> operands() const {
    return absl::MakeConstSpan(tensors_).subspan(0, num_operands_);
  }
  absl::Span<const TensorFactorShardings> results() const {
    return absl::MakeConstSpan(tensors_).subspan(num_operands_);
  }

  // expandShardingAxes on every tensor; returns which tensors changed.
  TensorFlags expandSharding(int64_t factor, AxisSpan new_axes);
  // updateShardingAxes on every tensor; returns which tensors changed.
  TensorFlags updateSharding(int64_t factor, AxisSpan new_axes,
                             AxisSpan new_overflow_axes = {});

  // Per factor, the greatest common prefix of its axes over all tensors that
  // map it.
  std::vector<AxisList> greatestCommonPrefixAxes() const;
  // Which tensors have overflow axes in some factor.
  TensorFlags tensorsWithOverflowAxes() const;

  friend bool operator==(const ShardingProjection&,
                         const ShardingProjection&) = default;

 private:
  std::vector<TensorFactorShardings> tensors_;
  int64_t num_operands_ = 0;
  int64_t num_factors_ = 0;
};

// The table as text, one line per tensor: `T0: i=["x", ?] j=[] | repl=[...]`,
// for debugging and test failure messages.
std::string toString(const ShardingProjection& projection, const Mesh& mesh);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_SHARDING_PROJECTION_H_
