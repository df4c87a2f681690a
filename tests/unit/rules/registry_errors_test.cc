// Malformed ops give a status naming the op, never a crash.
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

constexpr std::string_view kModule = R"(
func.func @f(%arg0: tensor<3x6xf32>, %arg1: tensor<6x5xf32>, %arg2: tensor<5xf32>, %arg3: tensor<f32>) -> tensor<3x5xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<3x6xf32>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
  %2 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<5xf32>) -> tensor<3x5xf32>
  %3 = stablehlo.concatenate %0, %2, dim = 0 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
  %4 = stablehlo.custom_call @Cholesky(%0) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %5 = stablehlo.reduce(%arg0 init: %arg3) applies stablehlo.add across dimensions = [0] : (tensor<3x6xf32>, tensor<f32>) -> tensor<6xf32>
  %6 = "stablehlo.triangular_solve"(%arg0, %arg0) {left_side = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x6xf32>, tensor<3x6xf32>) -> tensor<3x6xf32>
  %7 = "mydialect.op"(%0) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
})";

constexpr std::string_view kPrefix = "error: sharding rule of ";

TEST_CASE("errors: missing and ill-typed attributes") {
  auto module = parseOrFail(kModule);
  Op dot = findOp(*module, "stablehlo.dot_general");
  dot.removeAttr("dot_dimension_numbers");
  CHECK(ruleText(dot) ==
        strCat(kPrefix,
               "'stablehlo.dot_general': attribute 'dot_dimension_numbers' "
               "must be a #stablehlo.dot, got nothing"));

  Op transpose = findOp(*module, "stablehlo.transpose");
  transpose.setAttr("permutation", Attribute::string("1, 0"));
  CHECK(ruleText(transpose) ==
        strCat(kPrefix,
               "'stablehlo.transpose': attribute 'permutation' must be a "
               "list of integers, got \"1, 0\""));
  transpose.removeAttr("permutation");
  CHECK(ruleText(transpose) ==
        strCat(kPrefix,
               "'stablehlo.transpose': missing attribute 'permutation'"));

  Op concat = findOp(*module, "stablehlo.concatenate");
  concat.setAttr("dimension", Attribute::floating(0.5, "f32"));
  CHECK(ruleText(concat) ==
        strCat(kPrefix,
               "'stablehlo.concatenate': attribute 'dimension' must be an "
               "integer, got another kind of attribute"));

  Op call = findOp(*module, "stablehlo.custom_call");
  call.removeAttr("call_target_name");
  CHECK(ruleText(call) == strCat(kPrefix,
                                 "'stablehlo.custom_call': missing attribute "
                                 "'call_target_name'"));
}

TEST_CASE("errors: dense literals that are not integer lists") {
  auto module = parseOrFail(kModule);
  Op reduce = findOp(*module, "stablehlo.reduce");
  Type f32x1 = module->types().rankedTensor({1}, "f32");
  reduce.setAttr("dimensions", Attribute::elements("dense<1.5>", f32x1));
  CHECK(ruleText(reduce).starts_with(
      strCat(kPrefix,
             "'stablehlo.reduce': attribute 'dimensions' must be a "
             "list of integers")));
  Type i64x3 = module->types().rankedTensor({3}, "i64");
  reduce.setAttr("dimensions", Attribute::elements("dense<[0, 1]>", i64x3));
  CHECK(ruleText(reduce).starts_with(
      strCat(kPrefix,
             "'stablehlo.reduce': attribute 'dimensions' must be a "
             "list of integers")));
}

TEST_CASE("errors: enum attributes") {
  auto module = parseOrFail(kModule);
  Op solve = findOp(*module, "stablehlo.triangular_solve");
  solve.setAttr("transpose_a", Attribute::opaque("#stablehlo<transpose UP>"));
  CHECK(ruleText(solve) ==
        strCat(kPrefix,
               "'stablehlo.triangular_solve': unknown transpose_a value "
               "'UP'"));
  solve.setAttr("transpose_a", Attribute::integer(1));
  CHECK(ruleText(solve).starts_with(
      strCat(kPrefix,
             "'stablehlo.triangular_solve': attribute 'transpose_a' "
             "must be a StableHLO enum")));
}

TEST_CASE("errors: a factory's complaint is relabelled with the op") {
  auto module = parseOrFail(kModule);
  Op broadcast = findOp(*module, "stablehlo.broadcast_in_dim");
  broadcast.setAttr("broadcast_dimensions", Attribute::i64Array({0, 1}));
  std::string text = ruleText(broadcast);
  CHECK(text.starts_with(strCat(kPrefix, "'stablehlo.broadcast_in_dim': ")));
  CHECK(text.find("broadcast") != std::string::npos);

  Op concat = findOp(*module, "stablehlo.concatenate");
  concat.setAttr("dimension", Attribute::integer(7));
  CHECK(ruleText(concat).starts_with(
      strCat(kPrefix, "'stablehlo.concatenate': ")));
}

TEST_CASE("errors: operand counts the rule does not fit") {
  auto module = parseOrFail(kModule);
  Op dot = findOp(*module, "stablehlo.dot_general");
  dot.eraseOperand(1);
  CHECK(ruleText(dot) ==
        strCat(kPrefix,
               "'stablehlo.dot_general': expected 2 operands and 1 results, "
               "got 1 and 1"));
  Op reduce = findOp(*module, "stablehlo.reduce");
  reduce.eraseOperand(1);
  CHECK(ruleText(reduce) ==
        strCat(kPrefix,
               "'stablehlo.reduce': expected one input and one init value "
               "per result (1 results), got 1 operands"));
}

TEST_CASE("errors: an sdy.sharding_rule that is not a rule") {
  auto module = parseOrFail(kModule);
  Op transpose = findOp(*module, "stablehlo.transpose");
  transpose.setAttr(kShardingRuleAttr, Attribute::string("([i])->([i])"));
  CHECK(ruleText(transpose) ==
        strCat(kPrefix,
               "'stablehlo.transpose': attribute 'sdy.sharding_rule' is not "
               "an op sharding rule: \"([i])->([i])\""));
}

TEST_CASE("errors: registered functions that fail or misfit") {
  auto module = parseOrFail(kModule);
  Op op = findOp(*module, "mydialect.op");
  registerOpRule(
      "mydialect.op",
      [](Op,
         const RuleOptions&) -> absl::StatusOr<std::optional<OpShardingRule>> {
        return absl::InvalidArgumentError("unsupported layout");
      });
  CHECK(ruleText(op) == strCat(kPrefix, "'mydialect.op': unsupported layout"));
  // One operand mapping too many.
  registerOpRule(
      "mydialect.op",
      [](Op,
         const RuleOptions&) -> absl::StatusOr<std::optional<OpShardingRule>> {
        return OpShardingRuleBuilder({{3, 5}, {3, 5}}, {{3, 5}})
            .addFactor(0, 3)
            .addFactor(1, 5)
            .build();
      });
  CHECK(ruleText(op) ==
        strCat(kPrefix,
               "'mydialect.op': the rule <([i, j], [i, j])->([i, j]) "
               "{i=3, j=5}> has 2 operand and 1 result mappings, the op has "
               "1 operands and 1 results"));
  // The wrong rank.
  registerOpRule(
      "mydialect.op",
      [](Op,
         const RuleOptions&) -> absl::StatusOr<std::optional<OpShardingRule>> {
        return OpShardingRuleBuilder({{3}}, {{3, 5}})
            .addFactor({0}, {0}, 3)
            .addFactor({kNullDim}, {1}, 5)
            .build();
      });
  CHECK(ruleText(op) ==
        strCat(kPrefix,
               "'mydialect.op': the rule <([i])->([i, j]) {i=3, j=5}> maps 1 "
               "dimensions of operand 0, which has rank 2"));
  registerOpRule("mydialect.op", nullptr);
  CHECK(ruleText(op) == "no rule");
}

}  // namespace
}  // namespace shardkit
