// The sdy dialect's canonicalization patterns, and helpers the pattern files
// share.
#include "shardkit/dialect/sdy/sharding_site.h"
#include "src/passes/canonicalize/patterns.h"

namespace shardkit::canonicalize_internal {

void registerSdyPatterns() {
  registerReshardPatterns();
  registerCollectivePatterns();
  registerReduceScatterFusion();
  registerManualComputationPatterns();
}

bool isBeforeInBlock(Op a, Op b) {
  for (Op op = a.nextInBlock(); op; op = op.nextInBlock()) {
    if (op == b) return true;
  }
  return false;
}

std::optional<TensorSharding> shardingOf(Value value) {
  return getSharding(value);
}

}  // namespace shardkit::canonicalize_internal
