// Helpers for the registry tests: parse a small module, find an op in it and
// print the rule the registry gives it.
#ifndef SHARDKIT_TESTS_UNIT_RULES_REGISTRY_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_RULES_REGISTRY_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/core/verify.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/strings.h"

namespace shardkit::testing {

// Parses `text` (verifying it); fails the test when it does not parse.
inline std::unique_ptr<Module> parseOrFail(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      parseModule(text, "test.mlir");
  INFO(text);
  if (!module.ok()) FAIL(std::string(fromAbsl(module.status().message())));
  return std::move(*module);
}

// The `index`-th op called `name` (pre-order); fails the test if absent.
inline Op findOp(Module& module, std::string_view name, int index = 0) {
  Op found;
  int seen = 0;
  module.walk([&](Op op) {
    if (!found && op.name() == name && seen++ == index) found = op;
  });
  INFO(name);
  REQUIRE(found);
  return found;
}

// The printed rule of `op`; "no rule"; or "error: MESSAGE". A rule is also
// checked with the core verifier against the op's shapes.
inline std::string ruleText(Op op, const RuleOptions& options = {}) {
  absl::StatusOr<std::optional<OpShardingRule>> rule =
      shardingRuleFor(op, options);
  if (!rule.ok())
    return "error: " + std::string(fromAbsl(rule.status().message()));
  if (!rule->has_value()) return "no rule";
  std::vector<Shape> operands = operandShapes(op);
  std::vector<Shape> results = resultShapes(op);
  absl::Status verified = verifyOpShardingRule(
      **rule, std::vector<TensorShapeView>(operands.begin(), operands.end()),
      std::vector<TensorShapeView>(results.begin(), results.end()));
  if (!verified.ok()) {
    return "verifier: " + std::string(fromAbsl(verified.message())) + " in " +
           toString(**rule);
  }
  return toString(**rule);
}

// The rule of the first op called `name` in the module `text`.
inline std::string ruleOf(std::string_view text, std::string_view name,
                          const RuleOptions& options = {}) {
  std::unique_ptr<Module> module = parseOrFail(text);
  return ruleText(findOp(*module, name), options);
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_RULES_REGISTRY_TEST_UTIL_H_
