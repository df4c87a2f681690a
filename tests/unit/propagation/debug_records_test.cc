// The records of debug-sharding-origins and debug-propagation-edge-sharding
// (src/propagation/debug_records.h), on small modules.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/propagation/debug_info.h"
#include "unit/propagation/driver_test_util.h"

namespace shardkit {
namespace {

using testing::firstOp;
using testing::parseModuleOrDie;
using testing::propagateOrDie;

PropagationOptions withOrigins() {
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.debug.sharding_origins = true;
  return options;
}

PropagationOptions withEdges() {
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.debug.propagation_edges = true;
  return options;
}

std::string attrText(const Attribute& attr) {
  return attr ? toString(attr) : "";
}

std::string argAttr(Module& m, unsigned i, std::string_view name) {
  return attrText(FuncOp(m.functions().front()).argAttr(i, name));
}

std::string resultAttr(Module& m, unsigned i, std::string_view name) {
  return attrText(FuncOp(m.functions().front()).resultAttr(i, name));
}

constexpr std::string_view kMesh = R"(sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>
)";

TEST_CASE("origins: each axis names the user sharding it came from") {
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
             %arg1: tensor<16x4xf32>)
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)"));
  propagateOrDie(*m, withOrigins());
  // A user sharding's own axes came from "self".
  CHECK(argAttr(*m, 0, kShardingOriginsAttr) == R"({x = "self"})");
  CHECK(argAttr(*m, 1, kShardingOriginsAttr) == R"({y = "output: 0"})");
  CHECK(attrText(firstOp(*m, "stablehlo.negate").attr(kShardingOriginsAttr)) ==
        R"([{x = "input: 0"}])");
  CHECK(attrText(
            firstOp(*m, "stablehlo.dot_general").attr(kShardingOriginsAttr)) ==
        R"([{x = "input: 0", y = "output: 0"}])");
  CHECK(resultAttr(*m, 0, kShardingOriginsAttr) ==
        R"({x = "input: 0", y = "self"})");
}

TEST_CASE("origins: constraints are numbered, and their axes are their own") {
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x", ?}, {?}]> : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{?}, {"z", ?}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)"));
  propagateOrDie(*m, withOrigins());
  std::vector<Op> constraints;
  m->walk([&](Op op) {
    if (op.name() == "sdy.sharding_constraint") constraints.push_back(op);
  });
  REQUIRE(constraints.size() == 2);
  CHECK(attrText(constraints[0].attr(kShardingOriginNameAttr)) ==
        R"("constraint_0")");
  CHECK(attrText(constraints[1].attr(kShardingOriginNameAttr)) ==
        R"("constraint_1")");
  CHECK(attrText(constraints[0].attr(kShardingOriginsAttr)) ==
        R"({x = "self", z = "constraint_1"})");
  CHECK(argAttr(*m, 0, kShardingOriginsAttr) ==
        R"({x = "constraint_0", z = "constraint_1"})");
}

TEST_CASE("origins: a merged or split axis keeps the origin of its parts") {
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}]>}) -> tensor<2x8xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<16xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
)"));
  propagateOrDie(*m, withOrigins());
  CHECK(attrText(firstOp(*m, "stablehlo.reshape").attr(kShardingOriginsAttr)) ==
        R"([{"z:(1)2" = "input: 0", "z:(2)2" = "input: 0"}])");
}

TEST_CASE("edges: each step that changes a sharding is numbered") {
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}) {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)"));
  propagateOrDie(*m, withEdges());
  // Step 0: the result sharding reaches the returned value; then abs (x
  // forward), negate (x forward, y backward), abs again (y backward); the
  // last step gives the function result x.
  CHECK(
      resultAttr(*m, 0, kPropagationEdgesAttr) ==
      R"(#sdy.propagation_edges<[{step-0 = [{"y" = result-0 -> [operand-0]}]}, )"
      R"({step-4 = [{"x" = operand-0 -> [result-0]}]}]>)");
  CHECK(
      attrText(firstOp(*m, "stablehlo.abs").attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-1 = [{"x" = operand-0 -> [result-0]}]}, )"
      R"({step-3 = [{"y" = result-0 -> [operand-0]}]}]>)");
  CHECK(
      attrText(firstOp(*m, "stablehlo.negate").attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-2 = [{"x" = operand-0 -> [result-0]}, )"
      R"({"y" = result-0 -> [operand-0]}]}]>)");
  CHECK(lastRecordedPropagationStep(*m) == 4);
}

TEST_CASE("edges: the sub-axes of one dimension's factors are one axis") {
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z":(1)2}, {"z":(2)2}]>}) -> tensor<4xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<2x2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)"));
  propagateOrDie(*m, withEdges());
  CHECK(
      attrText(firstOp(*m, "stablehlo.reshape").attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-0 = [{"z" = operand-0 -> [result-0]}]}]>)");
}

TEST_CASE(
    "edges: function results keep the first edge of each axis, on result 0") {
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
)"));
  propagateOrDie(*m, withEdges());
  CHECK(
      resultAttr(*m, 0, kPropagationEdgesAttr) ==
      R"(#sdy.propagation_edges<[{step-2 = [{"x" = operand-0 -> [result-0]}]}]>)");
  CHECK(resultAttr(*m, 1, kPropagationEdgesAttr).empty());
  CHECK(resultAttr(*m, 1, kShardingAttr) ==
        R"(#sdy.sharding<@mesh, [{"x", ?}]>)");
}

TEST_CASE("edges: steps continue after those already in the module") {
  // As -sdy-apply-sharding-constraints records the constraint it applied.
  auto m = parseModuleOrDie(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-6 = [{"x" = result-0 -> [operand-0]}]}]>} : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)"));
  propagateOrDie(*m, withEdges());
  CHECK(
      attrText(
          firstOp(*m, "sdy.sharding_constraint").attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-6 = [{"x" = result-0 -> [operand-0]}]}]>)");
  CHECK(
      attrText(firstOp(*m, "stablehlo.abs").attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-7 = [{"x" = operand-0 -> [result-0]}]}]>)");
  CHECK(
      resultAttr(*m, 0, kPropagationEdgesAttr) ==
      R"(#sdy.propagation_edges<[{step-8 = [{"x" = operand-0 -> [result-0]}]}]>)");
}

TEST_CASE("debug records don't change what propagation does") {
  const std::string text = strCat(kMesh, R"(
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"z", ?}]>},
             %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>})
    -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)");
  auto plain = parseModuleOrDie(text);
  auto debug = parseModuleOrDie(text);
  PropagationOptions options = withOrigins();
  options.debug.propagation_edges = true;
  propagateOrDie(
      *plain, PropagationOptions{.strategy = PropagationStrategy::kAggressive});
  propagateOrDie(*debug, options);
  CHECK(printModule(*debug) != printModule(*plain));
  removePropagationDebugInfo(*debug);
  CHECK(printModule(*debug) == printModule(*plain));
}

}  // namespace
}  // namespace shardkit
