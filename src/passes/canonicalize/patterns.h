// Internal to -canonicalize: the pattern sets of each dialect, and helpers
// they share.
#ifndef SHARDKIT_SRC_PASSES_CANONICALIZE_PATTERNS_H_
#define SHARDKIT_SRC_PASSES_CANONICALIZE_PATTERNS_H_

#include <optional>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/canonicalize.h"

namespace shardkit::canonicalize_internal {

// Registers the patterns of the sdy ops (reshards, collectives, manual
// computations).
void registerSdyPatterns();
void registerReshardPatterns();
void registerCollectivePatterns();
void registerManualComputationPatterns();
void registerReduceScatterFusion();

// True if `a` comes before `b`, both in one block.
bool isBeforeInBlock(Op a, Op b);

// The sharding of `value` as the reference's getSharding reads it, or none.
std::optional<TensorSharding> shardingOf(Value value);

}  // namespace shardkit::canonicalize_internal

#endif  // SHARDKIT_SRC_PASSES_CANONICALIZE_PATTERNS_H_
