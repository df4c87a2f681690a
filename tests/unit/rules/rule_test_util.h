// Helpers for the rule tests: the printed form of a factory's result, after
// checking it with the core rule verifier against the op's shapes.
#ifndef SHARDKIT_TESTS_UNIT_RULES_RULE_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_RULES_RULE_TEST_UTIL_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/verify.h"
#include "shardkit/rules/rule_builder.h"
#include "shardkit/support/strings.h"

namespace shardkit::testing {

inline std::vector<TensorShapeView> views(const std::vector<Shape>& shapes) {
  return std::vector<TensorShapeView>(shapes.begin(), shapes.end());
}

// `toString(rule)`, or "verifier: ..." if the core verifier rejects the rule
// for the given shapes.
inline std::string verifiedText(const OpShardingRule& rule,
                                const std::vector<Shape>& operands,
                                const std::vector<Shape>& results) {
  absl::Status verified =
      verifyOpShardingRule(rule, views(operands), views(results));
  if (!verified.ok()) {
    return "verifier: " + std::string(verified.message()) + " in " +
           toString(rule);
  }
  return toString(rule);
}

// As above, or "error: ..." if the factory failed.
inline std::string verifiedText(const absl::StatusOr<OpShardingRule>& rule,
                                const std::vector<Shape>& operands,
                                const std::vector<Shape>& results) {
  if (!rule.ok()) return "error: " + std::string(rule.status().message());
  return verifiedText(*rule, operands, results);
}

inline std::string verifiedText(
    const absl::StatusOr<std::optional<OpShardingRule>>& rule,
    const std::vector<Shape>& operands, const std::vector<Shape>& results) {
  if (!rule.ok()) return "error: " + std::string(rule.status().message());
  if (!rule->has_value()) return "no rule";
  return verifiedText(**rule, operands, results);
}

// The printed form without verification (for rules the verifier rejects on
// purpose, e.g. conservative ones or dynamic shapes).
inline std::string text(const absl::StatusOr<OpShardingRule>& rule) {
  if (!rule.ok()) return "error: " + std::string(rule.status().message());
  return toString(*rule);
}

// `[2, 3, ?]`.
inline std::string shapeString(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    if (shape[i] == kDynamicSize) {
      out += '?';
    } else {
      strAppend(out, shape[i]);
    }
  }
  return out + "]";
}

// The product of the sizes of the factors that dimension `dim` of tensor
// `tensor` (operands first) maps to.
inline int64_t dimFactorProduct(const OpShardingRule& rule, int64_t tensor,
                                int64_t dim) {
  int64_t product = 1;
  for (int64_t factor :
       rule.tensorMapping(tensor).dim_mappings[dim].factor_indices) {
    product *= rule.factor_sizes[factor];
  }
  return product;
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_RULES_RULE_TEST_UTIL_H_
