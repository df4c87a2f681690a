// The driver on data-flow edges (after -sdy-add-data-flow-edges): where the
// sharding of each target lives, which ops an edge's change queues, and the
// local view of a manual computation's body.
#include <catch2/catch.hpp>

#include "unit/propagation/driver_test_util.h"

namespace shardkit {
namespace {

using testing::firstOp;
using testing::parseModuleOrDie;
using testing::propagateOrDie;
using testing::shardingText;

// The edge of result 0 has the while operand and the body's returned value
// as sources and holds the sharding of the result and both region
// arguments. The compare in the cond region reads the cond argument.
constexpr const char* kWhile = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %2 = stablehlo.compare  LT, %iterArg, %arg1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %3 = stablehlo.custom_call @any(%2) : (tensor<8xi1>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %2 = stablehlo.abs %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)";

TEST_CASE(
    "driver edges: a body op shards the edge and all its targets' users") {
  auto module = parseModuleOrDie(kWhile);
  propagateOrDie(*module);
  Op edge = firstOp(*module, "sdy.data_flow_edge");
  CHECK(shardingText(edge.result(0)) == R"(<@mesh, [{"y", ?}]>)");
  // The cond argument is a target of the same edge: its user, the compare,
  // was queued when the edge changed and passes "y" on to %arg1.
  CHECK(shardingText(firstOp(*module, "stablehlo.compare").result(0)) ==
        R"(<@mesh, [{"y", ?}]>)");
  FuncOp func(module->functions().front());
  CHECK(shardingText(func.argument(0)) == R"(<@mesh, [{"y", ?}]>)");
  CHECK(shardingText(func.argument(1)) == R"(<@mesh, [{"y", ?}]>)");
  // The while result's sharding is the edge's; the while op itself keeps
  // none.
  Value result = firstOp(*module, "stablehlo.while").result(0);
  CHECK(shardingText(result) == R"(<@mesh, [{"y", ?}]>)");
  CHECK(!getEdgeOwnerSharding(result));
}

TEST_CASE("driver edges: without edge ops nothing crosses the while") {
  std::string text = kWhile;
  text.replace(
      text.find("  %1 = sdy.data_flow_edge %0 : tensor<8xf32>\n"),
      std::string("  %1 = sdy.data_flow_edge %0 : tensor<8xf32>\n").size(), "");
  text.replace(text.find("return %1"), std::string("return %1").size(),
               "return %0");
  auto module = parseModuleOrDie(text);
  propagateOrDie(*module);
  FuncOp func(module->functions().front());
  CHECK(shardingText(func.argument(0)).empty());
  CHECK(shardingText(func.argument(1)).empty());
}

constexpr const char* kManual = R"(
sdy.mesh @mesh = <["m"=2, "x"=2]>
func.func @main(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"m", ?}, {?}]>] out_shardings=[<@mesh, [{"m", ?}, {?}]>] manual_axes={"m"} (%arg1: tensor<8x8xf32>) {
    %2 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {?}]> : tensor<8x8xf32>
    %3 = stablehlo.abs %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x"}]>]>} : tensor<8x8xf32>
    sdy.return %3 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"m", ?}, {?}]> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
)";

TEST_CASE("driver edges: manual axes are added outside and removed inside") {
  auto module = parseModuleOrDie(kManual);
  propagateOrDie(*module);
  std::vector<Op> edges;
  module->walk([&](Op op) {
    if (op.name() == "sdy.data_flow_edge") edges.push_back(op);
  });
  REQUIRE(edges.size() == 2);
  // The body argument's edge holds the local sharding (no "m")...
  CHECK(shardingText(edges[0].result(0)) == R"(<@mesh, [{?}, {"x", ?}]>)");
  // ...the operand outside gets the global one, with the manual "m" of the
  // in_sharding in front,
  FuncOp func(module->functions().front());
  CHECK(shardingText(func.argument(0)) == R"(<@mesh, [{"m", ?}, {"x", ?}]>)");
  // and the result's edge, global, gets "x" behind its manual "m".
  CHECK(shardingText(edges[1].result(0)) == R"(<@mesh, [{"m", ?}, {"x", ?}]>)");
  // in_shardings/out_shardings are the sink pass's business.
  Op manual = firstOp(*module, "sdy.manual_computation");
  CHECK(toString(*manual.attr("in_shardings").as<TensorShardingPerValue>()) ==
        R"(<[<@mesh, [{"m", ?}, {?}]>]>)");
}

TEST_CASE("driver edges: a sharding group member on a while body argument") {
  // The group's members are the body argument (held by the edge) and %arg1:
  // when the body's abs shards the edge, %arg1 follows.
  std::string text = kWhile;
  text.replace(
      text.find("    stablehlo.return %2 : tensor<8xf32>\n  }"),
      std::string("    stablehlo.return %2 : tensor<8xf32>\n  }").size(),
      "    sdy.sharding_group %iterArg group_id=0 : tensor<8xf32>\n"
      "    stablehlo.return %2 : tensor<8xf32>\n  }\n"
      "  sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>");
  auto module = parseModuleOrDie(text);
  propagateOrDie(*module);
  FuncOp func(module->functions().front());
  CHECK(shardingText(func.argument(1)) == R"(<@mesh, [{"y", ?}]>)");
}

}  // namespace
}  // namespace shardkit
