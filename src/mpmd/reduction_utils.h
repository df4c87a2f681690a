// Internal to the mpmd layer: StableHLO reductions mesh inference turns into
// cross-mesh reduces (add, max, min, multiply, or, and), and the
// concatenate-then-reduce form of a reduction over values stacked along a
// size-1 dimension.
#ifndef SHARDKIT_SRC_MPMD_REDUCTION_UTILS_H_
#define SHARDKIT_SRC_MPMD_REDUCTION_UTILS_H_

#include <optional>

#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// The reduction `op` computes, if it is one of the binary reductions.
std::optional<ReductionType> reductionOpType(Op op);

// The reduction a reducer body computes: every returned value is the same
// binary reduction of argument i and argument i + n (in either order).
std::optional<ReductionType> bodyReductionType(Block body);

// If `op` is a stablehlo.concatenate of equal types along a dimension of size
// 1 whose only user is a one-input stablehlo.reduce over that dimension,
// that reduce; otherwise null.
Op matchConcatReduce(Op op);

// The reduction of `type` over `lhs` and `rhs`, created at the end of
// `block` (before its terminator when it has one).
Value createReduction(ReductionType type, Value lhs, Value rhs, Block block,
                      uint32_t location);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_REDUCTION_UTILS_H_
