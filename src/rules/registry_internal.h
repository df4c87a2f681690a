// Internal: how the registry's per-op adapters read an op. OpView caches the
// operand and result shapes and reads attributes in either of their
// spellings, turning every problem into a status that names the op.
#ifndef SHARDKIT_SRC_RULES_REGISTRY_INTERNAL_H_
#define SHARDKIT_SRC_RULES_REGISTRY_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/factor_propagation/rule_builder.h"
#include "shardkit/ir/graph.h"
#include "shardkit/rules/reduction_rules.h"
#include "shardkit/rules/registry.h"

namespace shardkit::rules_internal {

using RuleResult = absl::StatusOr<std::optional<OpShardingRule>>;

class OpView {
 public:
  explicit OpView(Op op);

  Op op() const { return op_; }
  std::string_view name() const { return op_.name(); }
  const std::vector<Shape>& operands() const { return operands_; }
  const std::vector<Shape>& results() const { return results_; }
  size_t numOperands() const { return operands_.size(); }
  size_t numResults() const { return results_.size(); }
  // True if some operand or result is an unranked tensor or a ranked tensor
  // with a dynamic dim.
  bool hasDynamicShape() const { return dynamic_; }

  // InvalidArgument `sharding rule of 'NAME': MESSAGE`.
  absl::Status error(std::string_view message) const;
  // Re-labels a factory's error as this op's.
  absl::Status wrap(const absl::Status& status) const;

  // Exactly `operands` operands (and `results` results).
  absl::Status expectCounts(size_t operands, size_t results) const;
  // At least `min_operands` operands and `min_results` results.
  absl::Status expectAtLeast(size_t min_operands, size_t min_results) const;

  // An integer attribute (`1 : i64`); `fallback` when absent, if given.
  absl::StatusOr<int64_t> intAttr(std::string_view name) const;
  absl::StatusOr<int64_t> intAttr(std::string_view name,
                                  int64_t fallback) const;
  // A boolean (`true`, or an `i1` integer); `fallback` when absent.
  absl::StatusOr<bool> boolAttr(std::string_view name, bool fallback) const;
  // `array<i64: ...>`, `[1, 2]` or an integer `dense<...>` literal.
  absl::StatusOr<std::vector<int64_t>> intListAttr(std::string_view name) const;
  // As above; nullopt when absent.
  absl::StatusOr<std::optional<std::vector<int64_t>>> optionalIntListAttr(
      std::string_view name) const;
  // A string attribute (`"foo"`).
  absl::StatusOr<std::string> stringAttr(std::string_view name) const;
  // The bare value of a StableHLO enum attribute `#stablehlo<kind VALUE>`.
  absl::StatusOr<std::string> enumAttr(std::string_view name) const;
  // An `Nx2` integer padding (`dense<[[lo, hi], ...]> : tensor<Nx2xi64>`);
  // empty when absent.
  absl::StatusOr<WindowPadding> paddingAttr(std::string_view name) const;

 private:
  Op op_;
  std::vector<Shape> operands_;
  std::vector<Shape> results_;
  bool dynamic_ = false;
};

// The integers of an elements literal such as `dense<[[0, 1], [2, 3]]>` or
// the splat `dense<1>` (expanded to `num_elements` values), or nullopt if it
// holds anything but integers (or booleans, as 0/1).
std::optional<std::vector<int64_t>> denseIntegers(std::string_view literal,
                                                  int64_t num_elements);

// The built-in rule of `op`, or nullopt for an op without one.
RuleResult builtinRule(const OpView& op, const RuleOptions& options);

// Facts the adapters read from an op's surroundings.
bool isConstantValue(Value value);
bool usedByRngBitGenerator(Op op);
// True if the scatter's update computation combines every input with its
// update by one and the same add/maximum/minimum, which an all-reduce of
// partial results can reproduce.
bool scatterCombinerIsReduction(Op scatter);

}  // namespace shardkit::rules_internal

#endif  // SHARDKIT_SRC_RULES_REGISTRY_INTERNAL_H_
