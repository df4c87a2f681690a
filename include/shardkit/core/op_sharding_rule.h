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

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/formatter.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace rule_detail {

inline bool containsIndex(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace rule_detail

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
  bool containsFactor(int64_t factor) const {
    for (const DimMapping& dim : dim_mappings) {
      if (rule_detail::containsIndex(dim.factor_indices, factor)) return true;
    }
    return false;
  }
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
  kPermutation,
  kLast = kPermutation  // for enum tables (support/enum_table.h)
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

  int64_t numFactors() const { return std::ssize(factor_sizes); }
  int64_t numOperands() const { return std::ssize(operand_mappings); }
  int64_t numResults() const { return std::ssize(result_mappings); }
  // Operands first, then results.
  const TensorMapping& tensorMapping(int64_t tensor_index) const {
    return tensor_index < numOperands()
               ? operand_mappings[tensor_index]
               : result_mappings[tensor_index - numOperands()];
  }
  int64_t numTensors() const { return numOperands() + numResults(); }

  FactorType factorType(int64_t factor) const {
    if (rule_detail::containsIndex(reduction_factors, factor)) {
      return FactorType::kReduction;
    }
    if (rule_detail::containsIndex(need_replication_factors, factor)) {
      return FactorType::kNeedReplication;
    }
    if (rule_detail::containsIndex(permutation_factors, factor)) {
      return FactorType::kPermutation;
    }
    return FactorType::kPassThrough;
  }
  bool isBlocked(int64_t factor) const {
    return rule_detail::containsIndex(blocked_propagation_factors, factor);
  }
  // True if every result maps `factor` (so it is not a reduction-only
  // factor).
  bool isFactorInAllResults(int64_t factor) const {
    return std::all_of(
        result_mappings.begin(), result_mappings.end(),
        [&](const TensorMapping& m) { return m.containsFactor(factor); });
  }

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
inline std::string factorSymbol(int64_t index) {
  constexpr int64_t kLetters = 'z' - 'i';  // i..z are 0..17
  if (index <= kLetters) return std::string(1, static_cast<char>('i' + index));
  return strCat("z_", index - kLetters);
}

// Appends `ij`, the factors of one dimension.
inline void appendTo(std::string& out, const DimMapping& mapping) {
  for (int64_t factor : mapping.factor_indices) out += factorSymbol(factor);
}

// Appends `[i, jk]`.
inline void appendTo(std::string& out, const TensorMapping& mapping) {
  appendList(out, "[", mapping.dim_mappings, appendPrintable, "]");
}

namespace rule_detail {

inline void appendFactorSymbol(std::string& out, int64_t factor) {
  out += factorSymbol(factor);
}

// Appends ` keyword={i, k}`, or nothing for no factors.
inline void appendFactorList(std::string& out, std::string_view keyword,
                             absl::Span<const int64_t> factors) {
  if (factors.empty()) return;
  strAppend(out, " ", keyword, "=");
  appendList(out, "{", factors, appendFactorSymbol, "}");
}

}  // namespace rule_detail

// Appends the stripped form `<([i, j])->([ij]) {i=2, j=4}>`.
inline void appendTo(std::string& out, const OpShardingRule& rule) {
  appendList(out, "<(", rule.operand_mappings, appendPrintable, ")->");
  appendList(out, "(", rule.result_mappings, appendPrintable, ")");
  if (!rule.factor_sizes.empty()) {
    int64_t factor = 0;
    appendList(
        out, " {", rule.factor_sizes,
        [&](std::string& o, int64_t size) {
          strAppend(o, factorSymbol(factor++), "=", size);
        },
        "}");
  }
  using rule_detail::appendFactorList;
  appendFactorList(out, "reduction", rule.reduction_factors);
  appendFactorList(out, "need_replication", rule.need_replication_factors);
  appendFactorList(out, "permutation", rule.permutation_factors);
  appendFactorList(out, "blocked_propagation",
                   rule.blocked_propagation_factors);
  if (rule.is_custom_rule) out += ", custom";
  out += '>';
}

// `#sdy.op_sharding_rule<...>`.
inline std::string toAttrString(const OpShardingRule& rule) {
  return "#sdy.op_sharding_rule" + toString(rule);
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_OP_SHARDING_RULE_H_
