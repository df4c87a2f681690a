// The driver across calls (after -sdy-add-func-data-flow-edges): a callee's
// argument edge links it to the operands of every call, a call result's edge
// to the callee's returned value; callee bodies are visited before their
// callers.
#include <catch2/catch.hpp>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "unit/propagation/driver_test_util.h"

namespace shardkit {
namespace {

using testing::firstOp;
using testing::parseModuleOrDie;
using testing::propagateOrDie;
using testing::shardingText;

// @main calls @f twice; the edges are those -sdy-add-func-data-flow-edges
// adds. @f's body shards its argument's user.
constexpr const char* kCalls = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
  %2 = call @f(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.func_data_flow_edge %2 : tensor<8xf32>
  %4 = stablehlo.abs %3 : tensor<8xf32>
  return %1, %4 : tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)";

TEST_CASE("driver func edges: a callee's sharding reaches every call") {
  auto module = parseModuleOrDie(kCalls);
  propagateOrDie(*module);
  FuncOp main(module->functions().front());
  FuncOp f(module->functions().back());
  // Backwards into the callee's argument edge, and from it to the operands
  // of both calls.
  CHECK(shardingText(f.argument(0)) == R"(<@mesh, [{"x", ?}]>)");
  CHECK(shardingText(main.argument(0)) == R"(<@mesh, [{"x", ?}]>)");
  CHECK(shardingText(main.argument(1)) == R"(<@mesh, [{"x", ?}]>)");
  // Forward from the returned value to both call results and their users.
  std::vector<Op> edges;
  module->walk([&](Op op) {
    if (isa<sdy::FuncDataFlowEdgeOp>(op)) edges.push_back(op);
  });
  REQUIRE(edges.size() == 3);
  CHECK(shardingText(edges[0].result(0)) == R"(<@mesh, [{"x", ?}]>)");
  CHECK(shardingText(edges[1].result(0)) == R"(<@mesh, [{"x", ?}]>)");
  CHECK(shardingText(firstOp(*module, "stablehlo.abs").result(0)) ==
        R"(<@mesh, [{"x", ?}]>)");
  // The shardings live on the edges: the calls and @f's argument keep none.
  CHECK_FALSE(firstOp(*module, "func.call").hasAttr("sdy.sharding"));
  CHECK_FALSE(f.argAttr(0, "sdy.sharding"));
}

TEST_CASE("driver func edges: a caller's sharding reaches the callee") {
  auto module = parseModuleOrDie(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
})");
  propagateOrDie(*module);
  CHECK(shardingText(firstOp(*module, "stablehlo.negate").result(0)) ==
        R"(<@mesh, [{"y", ?}]>)");
  // Through @f's body and back out of the call into @main's result.
  CHECK(testing::funcResultText(*module, 0) == R"(<@mesh, [{"y", ?}]>)");
}

TEST_CASE("driver func edges: a callee's body is visited before its callers") {
  // Both @main's argument ({"x"}, via the add) and @f's body ({"y"}, via the
  // argument edge) want the add's dimension; @f is visited first, so "y"
  // reaches the add before "x" does.
  auto module = parseModuleOrDie(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.func_data_flow_edge %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
})");
  propagateOrDie(*module);
  CHECK(shardingText(firstOp(*module, "stablehlo.add").result(0)) ==
        R"(<@mesh, [{"y", ?}]>)");
}

}  // namespace
}  // namespace shardkit
