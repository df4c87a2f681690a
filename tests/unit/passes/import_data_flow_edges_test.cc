// -sdy-add-data-flow-edges and -sdy-sink-data-flow-edges on parsed modules.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::onlyOp;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

constexpr std::string_view kMesh = "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n";

constexpr std::string_view kWhile = R"(
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<i32>, %arg2: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<i32>, !stablehlo.token
    attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, []>, <@mesh, []>]>}
    cond {
    %1 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<8xf32>
    stablehlo.return %1, %iterArg_0, %iterArg_1 : tensor<8xf32>, tensor<i32>, !stablehlo.token
  }
  %2 = stablehlo.abs %0#0 : tensor<8xf32>
  return %2, %0#2 : tensor<8xf32>, !stablehlo.token
}
)";

TEST_CASE(
    "add-data-flow-edges wraps static tensor owners, copying their sharding") {
  auto module = parse(std::string(kMesh) + std::string(kWhile));
  requireOk(addDataFlowEdges(*module));

  std::vector<Op> edges = opsNamed(*module, "sdy.data_flow_edge");
  Op loop = onlyOp(*module, "stablehlo.while");
  // Two edges: the token result is skipped.
  REQUIRE(edges.size() == 2);
  CHECK(edges[0].operand(0) == loop.result(0));
  CHECK(edges[1].operand(0) == loop.result(1));
  CHECK(shardingText(edges[0], "sharding") ==
        "#sdy.sharding<@mesh, [{\"a\"}]>");
  // The edges follow the while in result order.
  CHECK(loop.nextInBlock() == edges[0]);
  CHECK(edges[0].nextInBlock() == edges[1]);
  // All other uses now go through the edge; the owner is used by it alone.
  CHECK(loop.result(0).hasOneUse());
  Op abs = onlyOp(*module, "stablehlo.abs");
  CHECK(abs.operand(0) == edges[0].result(0));
  // The while keeps its own sharding.
  CHECK(loop.hasAttr("sdy.sharding"));
}

TEST_CASE("add-data-flow-edges does not wrap an owner twice") {
  auto module = parse(std::string(kMesh) + std::string(kWhile));
  requireOk(addDataFlowEdges(*module));
  std::string once = printModule(*module);
  requireOk(addDataFlowEdges(*module));
  CHECK(printModule(*module) == once);
}

TEST_CASE(
    "add-data-flow-edges strips manual axes from a computation's arguments") {
  auto module = parse(std::string(kMesh) + R"(
func.func @f(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}p1, {?}]>] out_shardings=[<@mesh, [{"a"}, {}], replicated={"b"}>] manual_axes={"a"} (%arg1: tensor<4x4xf32>) {
    sdy.return %arg1 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
)");
  requireOk(addDataFlowEdges(*module));
  std::vector<Op> edges = opsNamed(*module, "sdy.data_flow_edge");
  REQUIRE(edges.size() == 2);
  // Pre-order: the body's argument edge, then the result's edge.
  CHECK(shardingText(edges[0], "sharding") ==
        "#sdy.sharding<@mesh, [{\"b\"}p1, {?}]>");
  CHECK(shardingText(edges[1], "sharding") ==
        "#sdy.sharding<@mesh, [{\"a\"}, {}], replicated={\"b\"}>");
}

TEST_CASE("function calls are not data-flow edges") {
  auto module = parse(R"(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @g(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)");
  requireOk(addDataFlowEdges(*module));
  CHECK(countOps(*module, "sdy.data_flow_edge") == 0);
}

TEST_CASE("sink-data-flow-edges undoes add-data-flow-edges") {
  std::string text = std::string(kMesh) + std::string(kWhile) + R"(
func.func @g(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}], replicated={"b"}>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "b"} (%arg2: tensor<4x4xf32>) {
    sdy.return %arg2 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.named_computation<"h">(%0) in_shardings=[<@mesh, [{"b"}, {}]>] (%arg3: tensor<8x4xf32>) {
    %2 = stablehlo.negate %arg3 : tensor<8x4xf32>
    sdy.return %2 : tensor<8x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3:2 = "stablehlo.case"(%arg1) ({
    stablehlo.return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
  }, {
    stablehlo.return %1, %0 : tensor<8x4xf32>, tensor<8x4xf32>
  }) : (tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  return %3#0, %3#1 : tensor<8x4xf32>, tensor<8x4xf32>
}
)";
  auto module = parse(text);
  std::string before = printModule(*module);
  requireOk(addDataFlowEdges(*module));
  CHECK(countOps(*module, "sdy.data_flow_edge") == 8);
  requireOk(sinkDataFlowEdges(*module));
  CHECK(countOps(*module, "sdy.data_flow_edge") == 0);
  CHECK(printModule(*module) == before);
}

TEST_CASE("sink-data-flow-edges moves edge shardings onto the owner's op") {
  auto module = parse(std::string(kMesh) + R"(
func.func @f(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}], replicated={"b"}>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "b"} (%arg1: tensor<4x4xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{}, {?}]> : tensor<4x4xf32>
    sdy.return %1 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", "b"}, {}]> : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
)");
  requireOk(sinkDataFlowEdges(*module));
  Op computation = onlyOp(*module, "sdy.manual_computation");
  // The body's sharding gets the manual prefix and replicated axes back; its
  // dimension 0 is now closed as the edge's was.
  CHECK(
      shardingText(computation, "in_shardings") ==
      "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {?}], replicated={\"b\"}>]>");
  CHECK(shardingText(computation, "out_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\", \"b\"}, {}]>]>");
  CHECK(countOps(*module, "sdy.data_flow_edge") == 0);
  // The function returns the computation's result again.
  Op ret = FuncOp(module->functions().front()).returnOp();
  CHECK(ret.operand(0) == computation.result(0));
}

TEST_CASE("sink-data-flow-edges option names") {
  auto module = parse(std::string(kMesh) + std::string(kWhile));
  PassOptions options;
  options.set("sink-debug-sharding-origins", "maybe");
  absl::Status status = runPass(*module, "sdy-sink-data-flow-edges", options);
  CHECK(!status.ok());
  CHECK_THAT(import_testing::message(status),
             Catch::Contains("sink-debug-sharding-origins"));
  PassOptions unknown;
  unknown.set("sink-everything", "true");
  CHECK(!runPass(*module, "sdy-sink-data-flow-edges", unknown).ok());
  PassOptions good;
  good.set("sink-debug-propagation-edge-sharding", "true");
  requireOk(runPass(*module, "sdy-sink-data-flow-edges", good));
}

}  // namespace
}  // namespace shardkit
