// Verification of op sharding rules against the shapes of an op's values
// (see core/verify.h for what every verifier guarantees).
#ifndef SHARDKIT_CORE_VERIFY_RULE_H_
#define SHARDKIT_CORE_VERIFY_RULE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/internal/core_verify_util.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// Verifies `rule` for an op whose operands and results have the given shapes.
//
// In order: no reduction factor appears in a result mapping (the reference
// rejects that when the rule is built); for operands then results: the
// mapping count matches the value count and is not 0; per tensor (`operand 1
// - ...`, `result - ...`): a ranked static shape, the mapping rank matches,
// and per dimension: at least one factor, factor indices in range, no factor
// reused within the tensor, no size-1 factor in a compound dimension; every
// factor is used somewhere; reduction, need-replication and permutation
// lists each sorted, unique and in range; no factor in two of them; the
// blocked-propagation list sorted, unique and in range.
//
// Like the reference, the product of a dimension's factor sizes is not
// compared with the dimension size: rules such as pad or custom rules map a
// dimension to a factor of a different size (e.g. `{k=5}` on a dimension of
// 11).
absl::Status verifyOpShardingRule(const OpShardingRule& rule,
                                  absl::Span<const TensorShapeView> operands,
                                  absl::Span<const TensorShapeView> results);

// Implementation.

namespace verify_internal {

// `'k'`, or the raw index when it is out of range for a symbol.
inline std::string factorName(int64_t factor) {
  if (factor < 0) return strCat("index ", factor);
  return strCat("'", factorSymbol(factor), "'");
}

inline bool isRankedStatic(TensorShapeView shape) {
  if (!shape.isShaped()) return false;
  return std::all_of(shape.dims().begin(), shape.dims().end(),
                     [](int64_t d) { return d >= 0; });
}

// Builds `operand 1 - msg` / `result - msg` like the reference.
class ValueErrors {
 public:
  ValueErrors(std::string_view kind, size_t num_values, size_t index)
      : prefix_(num_values == 1 ? strCat(kind, " - ")
                                : strCat(kind, " ", index, " - ")) {}
  absl::Status operator()(std::string_view message) const {
    return invalid(strCat(prefix_, message));
  }

 private:
  std::string prefix_;
};

// Checks one dimension mapping. `seen_in_tensor` holds the factors used by
// the tensor's earlier dimensions and is updated; so is `used`.
inline absl::Status verifyDimMapping(const DimMapping& mapping, int64_t dim,
                                     const std::vector<int64_t>& factor_sizes,
                                     std::vector<char>& seen_in_tensor,
                                     std::vector<char>& used,
                                     const ValueErrors& error) {
  const std::vector<int64_t>& factors = mapping.factor_indices;
  if (factors.empty()) {
    return error(
        strCat("dim mapping must have at least one factor (dim ", dim, ")"));
  }
  const int64_t num_factors = static_cast<int64_t>(factor_sizes.size());
  for (int64_t factor : factors) {
    if (factor < 0 || factor >= num_factors) {
      return error(
          strCat("expecting factor indices to be within 0<=...<num_factors; "
                 "received: ",
                 factor, ", num_factors: ", num_factors, " (dim ", dim, ")"));
    }
    if (seen_in_tensor[factor]) {
      return error(strCat("cannot reuse factors for the same tensor value (",
                          "factor ", factorName(factor), " at dim ", dim, ")"));
    }
    if (factor_sizes[factor] == 1 && factors.size() > 1) {
      return error(strCat(
          "dim mapping can't have a factor of size 1 if there are multiple "
          "factors (factor ",
          factorName(factor), " at dim ", dim, ")"));
    }
    seen_in_tensor[factor] = 1;
    used[factor] = 1;
  }
  return absl::OkStatus();
}

// Checks the operand (or result) mappings against their shapes and marks the
// factors they use in `used`.
inline absl::Status verifyMappings(std::string_view kind,
                                   absl::Span<const TensorMapping> mappings,
                                   absl::Span<const TensorShapeView> shapes,
                                   const std::vector<int64_t>& factor_sizes,
                                   std::vector<char>& used) {
  if (shapes.size() != mappings.size()) {
    return invalid(strCat("number of ", kind, "s and mappings must match: ",
                          shapes.size(), " != ", mappings.size()));
  }
  if (mappings.empty()) {
    return invalid(strCat("number of ", kind,
                          "s mappings cannot be 0: a sharding rule needs at "
                          "least one operand and one result"));
  }
  for (size_t i = 0; i < mappings.size(); ++i) {
    ValueErrors error(kind, mappings.size(), i);
    if (!isRankedStatic(shapes[i])) {
      return error("expected a ranked tensor with a static shape");
    }
    const TensorMapping& mapping = mappings[i];
    if (mapping.rank() != shapes[i].rank()) {
      return error(strCat("mapping rank must match: ", mapping.rank(),
                          " != ", shapes[i].rank()));
    }
    std::vector<char> seen_in_tensor(factor_sizes.size(), 0);
    for (int64_t dim = 0; dim < mapping.rank(); ++dim) {
      SK_RETURN_IF_ERROR(verifyDimMapping(mapping.dim_mappings[dim], dim,
                                          factor_sizes, seen_in_tensor, used,
                                          error));
    }
  }
  return absl::OkStatus();
}

// A special-factor list: sorted, unique, within [0, num_factors).
inline absl::Status verifyFactorList(std::string_view name,
                                     const std::vector<int64_t>& indices,
                                     int64_t num_factors) {
  if (indices.empty()) return absl::OkStatus();
  if (!std::is_sorted(indices.begin(), indices.end())) {
    return invalid(
        strCat("indices of special factors must be sorted (", name, ")"));
  }
  auto repeated = std::adjacent_find(indices.begin(), indices.end());
  if (repeated != indices.end()) {
    return invalid(strCat("indices of special factors must be unique (", name,
                          " repeats factor ", factorName(*repeated), ")"));
  }
  if (indices.front() < 0) {
    return invalid(strCat("index must be non-negative, got: ", indices.front(),
                          " (", name, ")"));
  }
  if (indices.back() >= num_factors) {
    return invalid(strCat("index must be less than ", num_factors,
                          ", got: ", indices.back(), " (", name, ")"));
  }
  return absl::OkStatus();
}

// The reference rejects this when the rule is built, before any op check.
inline absl::Status verifyReductionFactorsNotInResults(
    const OpShardingRule& rule) {
  for (int64_t factor : rule.reduction_factors) {
    for (size_t i = 0; i < rule.result_mappings.size(); ++i) {
      if (rule.result_mappings[i].containsFactor(factor)) {
        return invalid(
            strCat("reduction factor cannot be in result mappings (factor ",
                   factorName(factor), " in result ", i, ")"));
      }
    }
  }
  return absl::OkStatus();
}

inline absl::Status verifySpecialFactors(const OpShardingRule& rule) {
  const int64_t num_factors = rule.numFactors();
  SK_RETURN_IF_ERROR(
      verifyFactorList("reduction", rule.reduction_factors, num_factors));
  SK_RETURN_IF_ERROR(verifyFactorList(
      "need_replication", rule.need_replication_factors, num_factors));
  SK_RETURN_IF_ERROR(
      verifyFactorList("permutation", rule.permutation_factors, num_factors));
  // The lists are now known to hold factors within [0, num_factors).
  std::vector<char> special(num_factors, 0);
  for (const std::vector<int64_t>* list :
       {&rule.reduction_factors, &rule.need_replication_factors,
        &rule.permutation_factors}) {
    for (int64_t factor : *list) {
      if (std::exchange(special[factor], 1)) {
        return invalid(strCat(
            "a factor can only be in one of the reduction, need replication, "
            "or permutation factor sets (factor ",
            factorName(factor), ")"));
      }
    }
  }
  return verifyFactorList("blocked_propagation",
                          rule.blocked_propagation_factors, num_factors);
}

}  // namespace verify_internal

inline absl::Status verifyOpShardingRule(
    const OpShardingRule& rule, absl::Span<const TensorShapeView> operands,
    absl::Span<const TensorShapeView> results) {
  SK_RETURN_IF_ERROR(verify_internal::verifyReductionFactorsNotInResults(rule));
  std::vector<char> used(rule.factor_sizes.size(), 0);
  SK_RETURN_IF_ERROR(verify_internal::verifyMappings(
      "operand", rule.operand_mappings, operands, rule.factor_sizes, used));
  SK_RETURN_IF_ERROR(verify_internal::verifyMappings(
      "result", rule.result_mappings, results, rule.factor_sizes, used));
  auto unused = std::find(used.begin(), used.end(), 0);
  if (unused != used.end()) {
    int64_t factor = unused - used.begin();
    return verify_internal::invalid(strCat(
        "has factor ", factorSymbol(factor), "=", rule.factor_sizes[factor],
        " that isn't used in operand and result mappings"));
  }
  return verify_internal::verifySpecialFactors(rule);
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_RULE_H_
