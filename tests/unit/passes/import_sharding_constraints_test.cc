// -sdy-apply-sharding-constraints on parsed modules.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/import_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::onlyOp;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::sharding;
using import_testing::shardingText;

std::string withMesh(std::string_view body) {
  return strCat("sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n", body);
}

TEST_CASE("a closed constraint is copied to an unsharded function argument") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)"));
  requireOk(applyShardingConstraints(*module));
  FuncOp func(module->functions().front());
  std::optional<TensorSharding> s = getSharding(func.argument(0));
  REQUIRE(s.has_value());
  CHECK(*s == sharding("<@mesh, [{\"a\"}, {}]>"));
}

TEST_CASE("open constraints and already sharded inputs are left alone") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
)"));
  requireOk(applyShardingConstraints(*module));
  CHECK(!onlyOp(*module, "stablehlo.negate").hasAttr("sdy.sharding"));
  CHECK(shardingText(onlyOp(*module, "stablehlo.abs"), "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{}, {\"b\"}]>]>");
}

TEST_CASE("conflicting constraints on one input apply neither") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
)"));
  requireOk(applyShardingConstraints(*module));
  CHECK(!onlyOp(*module, "stablehlo.negate").hasAttr("sdy.sharding"));
}

TEST_CASE("a chain of constraints takes over later uses of its input") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %4 = stablehlo.exponential %0 : tensor<8x8xf32>
  return %0, %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
)"));
  requireOk(applyShardingConstraints(*module));
  std::vector<Op> constraints = opsNamed(*module, "sdy.sharding_constraint");
  REQUIRE(constraints.size() == 2);
  Op negate = onlyOp(*module, "stablehlo.negate");
  // Later in the block: uses the chain's result. Earlier use and the
  // function's return keep the input.
  CHECK(onlyOp(*module, "stablehlo.exponential").operand(0) ==
        constraints[1].result(0));
  CHECK(onlyOp(*module, "stablehlo.abs").operand(0) == negate.result(0));
  CHECK(FuncOp(module->functions().front()).returnOp().operand(0) ==
        negate.result(0));
  // The head's sharding is applied to the input.
  CHECK(shardingText(negate, "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>");
}

TEST_CASE("on a data-flow edge the constraint moves up and takes over uses") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %1 <@mesh, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
)"));
  requireOk(applyShardingConstraints(*module));
  Op edge = onlyOp(*module, "sdy.data_flow_edge");
  Op constraint = onlyOp(*module, "sdy.sharding_constraint");
  CHECK(edge.nextInBlock() == constraint);
  CHECK(onlyOp(*module, "stablehlo.negate").operand(0) == constraint.result(0));
  CHECK(edge.result(0).hasOneUse());
  // Only the unreduced axes go onto the edge.
  CHECK(shardingText(edge, "sharding") ==
        "#sdy.sharding<@mesh, [{?}, {?}], unreduced={\"b\"}>");
}

TEST_CASE("a manual computation's in_sharding acts as a constraint") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8x8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8x8xf32>
  %2 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %3 = sdy.manual_computation(%1, %2) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "b"} (%arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)"));
  requireOk(applyShardingConstraints(*module));
  // Through the edge: a new constraint after the edge.
  Op edge = onlyOp(*module, "sdy.data_flow_edge");
  Op constraint = onlyOp(*module, "sdy.sharding_constraint");
  CHECK(edge.nextInBlock() == constraint);
  CHECK(shardingText(constraint, "sharding") ==
        "#sdy.sharding<@mesh, [{\"a\"}, {}]>");
  Op computation = onlyOp(*module, "sdy.manual_computation");
  CHECK(computation.operand(0) == constraint.result(0));
  // A plain op result: the sharding is set on it.
  CHECK(shardingText(onlyOp(*module, "stablehlo.negate"), "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"b\"}, {}]>]>");
}

TEST_CASE("a scalar region argument has nowhere to hold a sharding") {
  auto module = parse(withMesh(R"(
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %1 = sdy.sharding_constraint %a <@mesh, []> : tensor<f32>
    %2 = stablehlo.add %1, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }
  return %0 : tensor<f32>
}
)"));
  std::string before = printModule(*module);
  requireOk(applyShardingConstraints(*module));
  CHECK(printModule(*module) == before);
}

}  // namespace
}  // namespace shardkit
