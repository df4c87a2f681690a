// -sdy-import-func-calls: what a named computation made of a call holds, and
// what happens to calls of the same function, nested calls and bad graphs.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/passes/call_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::message;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

// @main calls @f twice; @f calls @g. @f is a copy of @orig and its second
// argument is sharded on a non-maximal mesh.
constexpr const char* kModule = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%a, %a) {zz = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>, aa = "a"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f(%0, %0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32>, %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) attributes {sdy.original_func_name = "orig"} {
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  %1 = call @g(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @g(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";

TEST_CASE("import-func-calls: calls become named computations") {
  auto m = parse(kModule);
  ImportFuncCallsOptions options;
  options.add_data_flow_edges_on_named_computations = false;
  requireOk(importFuncCalls(*m, options));
  CHECK(countOps(*m, "func.call") == 0);
  // Only @main is left: the callees are erased.
  REQUIRE(m->functions().size() == 1);
  std::vector<Op> computations = opsNamed(*m, "sdy.named_computation");
  // Two for @f, each with its own computation for @g inside.
  REQUIRE(computations.size() == 4);
  sdy::NamedComputationOp first(computations[0]);
  CHECK(first.name() == "orig");
  CHECK(sdy::NamedComputationOp(computations[1]).name() == "g");
  CHECK(computations[1].parentOp() == computations[0]);
  CHECK(computations[3].parentOp() == computations[2]);
  // in_shardings: the callee's arguments (the unsharded one fully open on
  // the mesh of the sharded one); out_shardings: the call's.
  CHECK(shardingText(first, "in_shardings") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"x"}]>]>)");
  CHECK(shardingText(first, "out_shardings") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{"y"}]>]>)");
  CHECK_FALSE(computations[2].hasAttr("out_shardings"));
  // The call's other attributes, but not its sharding.
  CHECK(first->discardableAttrs().get("zz"));
  CHECK(first->discardableAttrs().get("aa"));
  CHECK_FALSE(first->discardableAttrs().get("sdy.sharding"));
  // The body: the callee's arguments are the block's, its return an
  // sdy.return.
  Block body = first.body();
  REQUIRE(body.numArguments() == 2);
  Op add = body.front();
  CHECK(add.operand(1) == body.argument(1));
  CHECK(isa<sdy::ReturnOp>(body.back()));
  // The second computation is fed by the first.
  CHECK(computations[2].operand(0) == computations[0].result(0));
}

TEST_CASE("import-func-calls: data-flow edges on the computations made") {
  auto m = parse(kModule);
  requireOk(importFuncCalls(*m));
  // Per computation for @f: 2 argument edges and 1 result edge; for @g: 1
  // and 1.
  CHECK(countOps(*m, "sdy.data_flow_edge") == 2 * (3 + 2));
  Op first = opsNamed(*m, "sdy.named_computation").front();
  Block body = sdy::NamedComputationOp(first).body();
  Op arg_edge = body.front();
  REQUIRE(isa<sdy::DataFlowEdgeOp>(arg_edge));
  CHECK(arg_edge.operand(0) == body.argument(0));
  // The argument edges carry the in_shardings.
  CHECK(shardingText(arg_edge.nextInBlock(), "sharding") ==
        R"(#sdy.sharding<@mesh, [{"x"}]>)");
  Op result_edge = first.nextInBlock();
  REQUIRE(isa<sdy::DataFlowEdgeOp>(result_edge));
  CHECK(shardingText(result_edge, "sharding") ==
        R"(#sdy.sharding<@mesh, [{"y"}]>)");
}

TEST_CASE("import-func-calls: only maximal argument shardings give none") {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
})");
  requireOk(importFuncCalls(*m));
  CHECK_FALSE(
      opsNamed(*m, "sdy.named_computation").front().hasAttr("in_shardings"));
}

TEST_CASE("import-func-calls: bad call graphs are errors at the call") {
  auto recursive = parse(R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @main(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  absl::Status status = importFuncCalls(*recursive);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(message(status), Catch::Contains("test.mlir:3:3"));
  CHECK_THAT(message(status), Catch::Contains("recursive call graph"));

  auto declaration = parse(R"(
func.func private @ext(tensor<8xf32>) -> tensor<8xf32>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @ext(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  status = importFuncCalls(*declaration);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(message(status), Catch::Contains("a function without a body"));
  // Nothing was changed.
  CHECK(countOps(*declaration, "func.call") == 1);
}

}  // namespace
}  // namespace shardkit
