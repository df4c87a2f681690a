// The aggressive strategy: resolves the conflicts the basic one gives up on,
// trading possible communication for a smaller memory footprint
// (docs/propagation.md).
//
// It differs from the basic strategy in two ways:
//   - Each tensor takes as much of a factor's compatible axes as it can on
//     its own: an axis that conflicts in one tensor (e.g. replicated there, or
//     in a closed dimension) no longer stops it from reaching the others.
//   - An axis wanted by several factors of one tensor is given to the factor
//     that comes first in a preference order, instead of to none:
//       1. the factor whose source tensor (a tensor already sharded along the
//          factor's compatible axes) is largest,
//       2. for elementwise ops, the factor whose compatible axes are largest,
//       3. the factor whose source tensor comes first (operands, then
//          results),
//       4. the factor with the smaller index.
// Results are expanded before operands. For elementwise ops an operand gets
// no more along a factor than a result that is a strict prefix of it, so
// that an axis a result can't take isn't spread sideways among operands.
#ifndef SHARDKIT_FACTOR_PROPAGATION_AGGRESSIVE_FACTOR_PROPAGATION_H_
#define SHARDKIT_FACTOR_PROPAGATION_AGGRESSIVE_FACTOR_PROPAGATION_H_

#include <cstdint>
#include <vector>

#include "shardkit/export.h"
#include "shardkit/factor_propagation/basic_factor_propagation.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The order in which the aggressive strategy serves factors, given each
// factor's compatible axes (see the file comment).
std::vector<int64_t> aggressiveFactorOrder(
    const ShardingProjection& projection,
    absl::Span<const AxisList> axes_per_factor,
    absl::Span<const int64_t> factor_sizes, bool is_elementwise);

// The aggressive strategy (see the file comment).
const FactorPropagation& aggressiveFactorPropagation();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_AGGRESSIVE_FACTOR_PROPAGATION_H_
