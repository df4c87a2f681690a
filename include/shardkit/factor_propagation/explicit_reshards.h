// Choosing one sharding per factor for an op whose operands and results
// disagree, so that explicit reshards can make them agree (docs/export.md,
// "Explicit reshards"). IR-free: a compiler with its own IR projects an op's
// shardings (ShardingProjection), asks findCommonAxes for the factor
// shardings, and reshards every tensor whose projection changed.
#ifndef SHARDKIT_FACTOR_PROPAGATION_EXPLICIT_RESHARDS_H_
#define SHARDKIT_FACTOR_PROPAGATION_EXPLICIT_RESHARDS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/factor_propagation/resolved_axis.h"
#include "shardkit/factor_propagation/sharding_projection.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// One axis list per factor of a rule.
using AxesPerFactor = std::vector<AxisList>;

// The sharding every tensor of the op should have, per factor, as the
// reference picks it:
//  - an op with exactly two non-scalar tensors, no need-replication factor
//    and no dimension of several factors keeps the factor shardings of one of
//    them (the one without sharded permutation factors, then the larger, then
//    the more sharded) and adds those of the other's factors it lacks, cut
//    where they overlap its axes;
//  - otherwise, greedily: every (factor, prefix of the factor's axes in some
//    tensor) is a candidate, ranked by the total size of the tensors it comes
//    from, then by factor kind (pass-through, reduction, permutation), then
//    by the largest local size of a tensor mapping the factor, then by how
//    much further it shards the factor; the best candidate is taken,
//    candidates that overlap it are cut back, and so on until none is left.
//    A factor that follows a not fully sharded factor in some dimension
//    waits until that one is full. The common prefix of a need-replication
//    factor's axes then moves to the batching factors that have room for it.
// `tensor_sizes` holds the element count of every tensor (operands, then
// results; 0 for a dynamic shape).
AxesPerFactor findCommonAxes(const ShardingProjection& projection,
                             const OpShardingRule& rule,
                             absl::Span<const int64_t> tensor_sizes,
                             const Mesh& mesh);

// A reshape (one operand, one result) whose projection has overflow axes
// cannot keep them: the axes of the more sharded side (factor axes and
// overflow axes, factor by factor) are handed out again over each side's
// factors, dimension by dimension, an axis to the first factors with room
// for part of it (split into sub-axes where needed) and what nothing has room
// for to the last factor. Returns, per factor, what the two resulting
// shardings agree on (the common prefix of their projections).
AxesPerFactor reshapeCommonAxes(const ShardingProjection& projection,
                                const OpShardingRule& rule, const Mesh& mesh);

// The non-full version's special case for a dot (two operands, one result;
// `tensor_sizes` lhs, rhs, result): if the operands agree on every factor
// they share, their non-contracting axes don't overlap, exactly one batching
// or non-contracting factor is sharded differently in the result (by axes
// that are exactly the contracting factors' axes, while the operand's are
// not empty), and the result is no larger than that operand, the result's
// projection takes the operand's axes for it and true is returned: the dot
// then runs more sharded and only its (smaller) result is resharded, with an
// all-reduce instead of a reduce-scatter of a larger operand.
bool reshardDotResultLikeOperands(ShardingProjection& projection,
                                  const OpShardingRule& rule,
                                  absl::Span<const int64_t> tensor_sizes);

// Per factor, the axes every tensor mapping it agrees on, or nullopt if two
// tensors disagree, a need-replication factor is sharded, or a reduction
// factor's axes overlap a result's axes: then the op needs reshards.
std::optional<AxesPerFactor> compatibleFactorShardings(
    const ShardingProjection& projection, const OpShardingRule& rule);

// Cuts `axes` at its first axis that overlaps `others`, keeping the part of
// that axis before the overlap. Returns whether it cut.
bool truncateAtOverlap(AxisList& axes, AxisSpan others);

// The rule's batching factors: pass-through factors that every non-scalar
// tensor maps.
std::vector<int64_t> batchingFactors(const OpShardingRule& rule);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_EXPLICIT_RESHARDS_H_
