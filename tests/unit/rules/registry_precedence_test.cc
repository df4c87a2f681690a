// Where a rule comes from: attached custom rules, registered rule functions,
// built-in rules and attached non-custom rules, in that order.
#include <catch2/catch.hpp>

#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/rule_builder.h"
#include "shardkit/rules/registry.h"
#include "unit/rules/registry_test_util.h"

namespace shardkit {
namespace {

using testing::findOp;
using testing::parseOrFail;
using testing::ruleText;

constexpr std::string_view kPointwise = "<([i, j])->([i, j]) {i=4, j=2}>";

// Removes a registration when the test ends, even when it fails.
struct OpRuleRegistration {
  OpRuleRegistration(std::string_view name, OpRuleFn fn) : name(name) {
    registerOpRule(name, std::move(fn));
  }
  ~OpRuleRegistration() { registerOpRule(name, nullptr); }
  std::string name;
};

struct CustomCallRuleRegistration {
  CustomCallRuleRegistration(std::string_view target, OpRuleFn fn)
      : target(target) {
    registerCustomCallRule(target, std::move(fn));
  }
  ~CustomCallRuleRegistration() { registerCustomCallRule(target, nullptr); }
  std::string target;
};

// A rule function that swaps the two dims of a rank-2 op.
OpRuleFn swapDims() {
  return
      [](Op op,
         const RuleOptions&) -> absl::StatusOr<std::optional<OpShardingRule>> {
        Shape in = operandShapes(op)[0];
        return OpShardingRuleBuilder({in}, resultShapes(op))
            .addFactor({0}, {1}, in[0])
            .addFactor({1}, {0}, in[1])
            .setCustom()
            .build();
      };
}

constexpr std::string_view kModule = R"(
func.func @f(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=4}, custom>} : tensor<4x2xf32>
  %1 = stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=1, j=1}>} : tensor<4x2xf32>
  %2 = stablehlo.custom_call @foo(%1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=2}>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %3 = stablehlo.custom_call @foo(%2) : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %4 = "mydialect.swap"(%2) : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return %2 : tensor<4x2xf32>
})";

TEST_CASE("precedence: an attached custom rule always wins") {
  auto module = parseOrFail(kModule);
  Op add = findOp(*module, "stablehlo.add");
  CHECK(ruleText(add) == "<([i, j], [i, j])->([i, j]) {i=2, j=4}, custom>");
  // registryRuleFor ignores the attribute.
  absl::StatusOr<std::optional<OpShardingRule>> registry = registryRuleFor(add);
  REQUIRE(registry.ok());
  REQUIRE(registry->has_value());
  CHECK(toString(**registry) == "<([i, j], [i, j])->([i, j]) {i=4, j=2}>");
  // Even over a registered rule function.
  OpRuleRegistration registration(
      "stablehlo.add",
      [](Op,
         const RuleOptions&) -> absl::StatusOr<std::optional<OpShardingRule>> {
        return absl::InternalError("must not be called");
      });
  CHECK(ruleText(add) == "<([i, j], [i, j])->([i, j]) {i=2, j=4}, custom>");
}

TEST_CASE("precedence: the built-in rule replaces a non-custom one") {
  auto module = parseOrFail(kModule);
  CHECK(ruleText(findOp(*module, "stablehlo.negate")) == kPointwise);
}

TEST_CASE("precedence: an op without a rule keeps its non-custom rule") {
  auto module = parseOrFail(kModule);
  CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 0)) == kPointwise);
  CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 1)) == "no rule");
}

TEST_CASE("precedence: rule functions registered for an op name") {
  auto module = parseOrFail(kModule);
  Op swap = findOp(*module, "mydialect.swap");
  CHECK(ruleText(swap) == "no rule");
  {
    OpRuleRegistration registration("mydialect.swap", swapDims());
    CHECK(ruleText(swap) == "<([i, j])->([j, i]) {i=4, j=2}, custom>");
  }
  CHECK(ruleText(swap) == "no rule");
}

TEST_CASE("precedence: a registered function replaces a built-in rule") {
  auto module = parseOrFail(kModule);
  Op negate = findOp(*module, "stablehlo.negate");
  {
    OpRuleRegistration registration(
        "stablehlo.negate",
        [](Op, const RuleOptions&)
            -> absl::StatusOr<std::optional<OpShardingRule>> {
          return std::nullopt;
        });
    // The function has no rule, so the attached non-custom rule stays.
    CHECK(ruleText(negate) == "<([i, j])->([i, j]) {i=1, j=1}>");
  }
  CHECK(ruleText(negate) == kPointwise);
}

TEST_CASE("precedence: rule functions registered for a custom call target") {
  auto module = parseOrFail(kModule);
  Op call = findOp(*module, "stablehlo.custom_call", 1);
  {
    CustomCallRuleRegistration registration("foo", swapDims());
    CHECK(ruleText(call) == "<([i, j])->([j, i]) {i=4, j=2}, custom>");
    // Another target is not affected.
    CustomCallRuleRegistration other("bar", nullptr);
    CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 0)) ==
          "<([i, j])->([j, i]) {i=4, j=2}, custom>");
  }
  CHECK(ruleText(call) == "no rule");
}

TEST_CASE("precedence: the options reach registered functions") {
  auto module = parseOrFail(kModule);
  Op swap = findOp(*module, "mydialect.swap");
  bool seen_conservative = false;
  OpRuleRegistration registration(
      "mydialect.swap",
      [&](Op, const RuleOptions& options)
          -> absl::StatusOr<std::optional<OpShardingRule>> {
        seen_conservative = options.conservative_propagation;
        return std::nullopt;
      });
  RuleOptions options;
  options.conservative_propagation = true;
  CHECK(ruleText(swap, options) == "no rule");
  CHECK(seen_conservative);
}

}  // namespace
}  // namespace shardkit
