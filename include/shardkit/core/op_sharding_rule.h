// OpShardingRule: how an op can be sharded, in the einsum-like notation
// `([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}`.
//
// Every operand and result dimension maps to one or more factors (several for
// a compound dimension, major to minor, as in reshape's `([ij])`). Factors
// have sizes and a kind: pass-through (the default), reduction,
// need-replication or permutation. Blocked-propagation factors are orthogonal
// to the kind: no sharding propagates along them.
#ifndef SHARDKIT_CORE_OP_SHARDING_RULE_H_
#define SHARDKIT_CORE_OP_SHARDING_RULE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/core/formatter.h"

namespace shardkit {

// The factors one dimension maps to, major to minor.
struct DimMapping {
  std::vector<int64_t> factor_indices;

  friend bool operator==(const DimMapping&, const DimMapping&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const DimMapping& d) {
    return H::combine(std::move(h), d.factor_indices);
  }
};

// One DimMapping per dimension of a tensor.
struct TensorMapping {
  std::vector<DimMapping> dim_mappings;

  int64_t rank() const { return static_cast<int64_t>(dim_mappings.size()); }
  // True if some dimension maps to `factor`.
  bool containsFactor(int64_t factor) const;
  friend bool operator==(const TensorMapping&, const TensorMapping&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const TensorMapping& t) {
    return H::combine(std::move(h), t.dim_mappings);
  }
};

enum class FactorType {
  kPassThrough,
  kReduction,
  kNeedReplication,
  kPermutation
};

struct OpShardingRule {
  std::vector<int64_t> factor_sizes;
  std::vector<TensorMapping> operand_mappings;
  std::vector<TensorMapping> result_mappings;
  std::vector<int64_t> reduction_factors;
  std::vector<int64_t> need_replication_factors;
  std::vector<int64_t> permutation_factors;
  std::vector<int64_t> blocked_propagation_factors;
  bool is_custom_rule = false;

  int64_t numFactors() const {
    return static_cast<int64_t>(factor_sizes.size());
  }
  int64_t numOperands() const {
    return static_cast<int64_t>(operand_mappings.size());
  }
  int64_t numResults() const {
    return static_cast<int64_t>(result_mappings.size());
  }
  // Operands first, then results.
  const TensorMapping& tensorMapping(int64_t tensor_index) const {
    return tensor_index < numOperands()
               ? operand_mappings[tensor_index]
               : result_mappings[tensor_index - numOperands()];
  }
  int64_t numTensors() const { return numOperands() + numResults(); }

  FactorType factorType(int64_t factor) const;
  bool isBlocked(int64_t factor) const;
  // True if some result maps `factor` (so it is not a reduction-only factor).
  bool isFactorInAllResults(int64_t factor) const;

  friend bool operator==(const OpShardingRule&,
                         const OpShardingRule&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const OpShardingRule& r) {
    return H::combine(std::move(h), r.factor_sizes, r.operand_mappings,
                      r.result_mappings, r.reduction_factors,
                      r.need_replication_factors, r.permutation_factors,
                      r.blocked_propagation_factors, r.is_custom_rule);
  }
};

// The symbol of factor `index`: `i`..`z` for 0..17, then `z_1`, `z_2`, ...
std::string factorSymbol(int64_t index);

std::string toString(const DimMapping& mapping);
std::string toString(const TensorMapping& mapping);
// Stripped form: `<([i, j])->([ij]) {i=2, j=4}>`.
std::string toString(const OpShardingRule& rule);
// `#sdy.op_sharding_rule<...>`.
std::string toAttrString(const OpShardingRule& rule);

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::DimMapping);
SHARDKIT_DEFINE_FORMATTER(shardkit::TensorMapping);
SHARDKIT_DEFINE_FORMATTER(shardkit::OpShardingRule);

#endif  // SHARDKIT_CORE_OP_SHARDING_RULE_H_
