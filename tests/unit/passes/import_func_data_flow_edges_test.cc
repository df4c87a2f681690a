// -sdy-add-func-data-flow-edges and -sdy-sink-func-data-flow-edges: which
// values get an edge, where it goes, what sharding it carries, and how the
// sharding comes back.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/call_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

// @main calls @f, whose second result is a token; @f's first argument is
// sharded.
constexpr const char* kModule = R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>, %t: !stablehlo.token) -> tensor<8xf32> {
  %0:2 = call @f(%a, %t) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, []>]>} : (tensor<8xf32>, !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token)
  %1 = stablehlo.abs %0#0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %t: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  %0 = stablehlo.negate %a : tensor<8xf32>
  return %0, %t : tensor<8xf32>, !stablehlo.token
}
)";

TEST_CASE("add-func-data-flow-edges: callee arguments and call results") {
  auto m = parse(kModule);
  requireOk(addFuncDataFlowEdges(*m));
  std::vector<Op> edges = opsNamed(*m, "sdy.func_data_flow_edge");
  // The call's tensor result (not its token) and @f's tensor argument; none
  // on @main's arguments.
  REQUIRE(edges.size() == 2);
  Op call = opsNamed(*m, "func.call").front();
  CHECK(edges[0].operand(0) == call.result(0));
  CHECK(call.nextInBlock() == edges[0]);
  CHECK(shardingText(edges[0], "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{"x"}]>]>)");
  FuncOp f(m->functions().back());
  CHECK(edges[1].operand(0) == f.argument(0));
  CHECK(f.body().front() == edges[1]);
  CHECK(shardingText(edges[1], "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{"x"}]>]>)");
  // Every other use now reads the edge.
  CHECK(opsNamed(*m, "stablehlo.abs").front().operand(0) == edges[0].result(0));
  CHECK(opsNamed(*m, "stablehlo.negate").front().operand(0) ==
        edges[1].result(0));
  // Wrapped values are left alone the second time.
  requireOk(addFuncDataFlowEdges(*m));
  CHECK(countOps(*m, "sdy.func_data_flow_edge") == 2);
}

TEST_CASE("add-func-data-flow-edges: several arguments and results in order") {
  auto m = parse(R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = call @f(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = stablehlo.add %0#1, %0#0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  return %b, %a : tensor<8xf32>, tensor<8xf32>
})");
  requireOk(addFuncDataFlowEdges(*m));
  std::vector<Op> edges = opsNamed(*m, "sdy.func_data_flow_edge");
  REQUIRE(edges.size() == 4);
  Op call = opsNamed(*m, "func.call").front();
  CHECK(edges[0].operand(0) == call.result(0));
  CHECK(edges[1].operand(0) == call.result(1));
  CHECK(edges[0].nextInBlock() == edges[1]);
  FuncOp f(m->functions().back());
  CHECK(edges[2].operand(0) == f.argument(0));
  CHECK(edges[3].operand(0) == f.argument(1));
  CHECK_FALSE(edges[2].hasAttr("sdy.sharding"));
}

TEST_CASE("sink-func-data-flow-edges: the edge's sharding goes to its input") {
  auto m = parse(kModule);
  requireOk(addFuncDataFlowEdges(*m));
  std::vector<Op> edges = opsNamed(*m, "sdy.func_data_flow_edge");
  // The call result's edge says {}, the argument's edge has none.
  REQUIRE(setSharding(edges[0].result(0),
                      import_testing::sharding(R"(<@mesh, [{}]>)")));
  edges[1].removeAttr("sdy.sharding");
  requireOk(sinkFuncDataFlowEdges(*m));
  CHECK(countOps(*m, "sdy.func_data_flow_edge") == 0);
  Op call = opsNamed(*m, "func.call").front();
  CHECK(shardingText(call, "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, []>]>)");
  CHECK(opsNamed(*m, "stablehlo.abs").front().operand(0) == call.result(0));
  // An input sharded while its edge isn't becomes fully open.
  FuncOp f(m->functions().back());
  CHECK(toString(f.argAttr(0, "sdy.sharding")) ==
        R"(#sdy.sharding<@mesh, [{?}]>)");
  CHECK(opsNamed(*m, "stablehlo.negate").front().operand(0) == f.argument(0));
}

TEST_CASE("sink-func-data-flow-edges: an unsharded call takes the edge's") {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = call @f(%a) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = sdy.func_data_flow_edge %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0#0, %1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  return %a, %a : tensor<8xf32>, tensor<8xf32>
})");
  requireOk(sinkFuncDataFlowEdges(*m));
  // The other result gets a fully open sharding on the same mesh.
  CHECK(shardingText(opsNamed(*m, "func.call").front(), "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"x"}]>]>)");
}

}  // namespace
}  // namespace shardkit
