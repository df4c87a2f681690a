#include "shardkit/core/op_sharding_rule.h"

#include <algorithm>

namespace shardkit {
namespace {

bool containsIndex(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

bool TensorMapping::containsFactor(int64_t factor) const {
  for (const DimMapping& dim : dim_mappings) {
    if (containsIndex(dim.factor_indices, factor)) return true;
  }
  return false;
}

FactorType OpShardingRule::factorType(int64_t factor) const {
  if (containsIndex(reduction_factors, factor)) return FactorType::kReduction;
  if (containsIndex(need_replication_factors, factor)) {
    return FactorType::kNeedReplication;
  }
  if (containsIndex(permutation_factors, factor)) {
    return FactorType::kPermutation;
  }
  return FactorType::kPassThrough;
}

bool OpShardingRule::isBlocked(int64_t factor) const {
  return containsIndex(blocked_propagation_factors, factor);
}

bool OpShardingRule::isFactorInAllResults(int64_t factor) const {
  return std::all_of(
      result_mappings.begin(), result_mappings.end(),
      [&](const TensorMapping& m) { return m.containsFactor(factor); });
}

}  // namespace shardkit
