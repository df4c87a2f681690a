// After propagation across calls: -sdy-propagate-to-func-results (a callee's
// result shardings are those of what it returns) and
// -sdy-insert-func-call-reshards (a call sharded unlike its callee).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/passes/call_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::funcNamed;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

TEST_CASE("propagate-to-func-results: callees, not the main function") {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = call @f(%a) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  %1 = stablehlo.abs %0#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %1, %0#1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0, %a : tensor<8xf32>, tensor<8xf32>
})");
  requireOk(propagateToFuncResults(*m));
  FuncOp f = funcNamed(*m, "f");
  CHECK(toString(f.resultAttr(0, "sdy.sharding")) ==
        R"(#sdy.sharding<@mesh, [{"x"}]>)");
  // The unsharded argument it returns clears the result's sharding.
  CHECK_FALSE(f.resultAttr(1, "sdy.sharding"));
  CHECK_FALSE(funcNamed(*m, "main").resultAttr(0, "sdy.sharding"));
}

TEST_CASE("propagate-to-func-results: without a main, entries are left") {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @entry(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @other(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  requireOk(propagateToFuncResults(*m));
  CHECK(funcNamed(*m, "f").resultAttr(0, "sdy.sharding"));
  CHECK_FALSE(funcNamed(*m, "entry").resultAttr(0, "sdy.sharding"));
  CHECK_FALSE(funcNamed(*m, "other").resultAttr(0, "sdy.sharding"));
}

// @main calls @f three times: sharded like @f's results, unlike them, and
// not at all.
constexpr const char* kCalls = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = call @f(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %1:2 = call @f(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {"x"}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %2:2 = call @f(%a) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %3 = stablehlo.add %1#0, %1#1 : tensor<8x8xf32>
  return %0#0, %3, %2#0 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
func.func private @f(%a: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<8x8xf32>) {
  return %a, %a : tensor<8x8xf32>, tensor<8x8xf32>
}
)";

TEST_CASE("insert-func-call-reshards: calls take the callee's sharding") {
  auto m = parse(kCalls);
  requireOk(insertFuncCallReshards(*m));
  std::vector<Op> calls = opsNamed(*m, "func.call");
  // Alike (a missing callee sharding is replicated, closed): unchanged.
  CHECK(
      shardingText(calls[0], "sdy.sharding") ==
      R"(#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>)");
  CHECK(opsNamed(*m, "sdy.reshard").size() == 2);
  // Unlike: the call says what @f gives and reshards to what it said, each
  // result's reshard right after the call (the last result's first).
  CHECK(
      shardingText(calls[1], "sdy.sharding") ==
      R"(#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>)");
  Op second = calls[1].nextInBlock();
  Op first = second.nextInBlock();
  REQUIRE(isa<sdy::ReshardOp>(second));
  REQUIRE(isa<sdy::ReshardOp>(first));
  CHECK(second.operand(0) == calls[1].result(1));
  CHECK(sdy::ReshardOp(second).sharding() ==
        import_testing::sharding(R"(<@mesh, [{}, {"x"}]>)"));
  CHECK(first.operand(0) == calls[1].result(0));
  CHECK(sdy::ReshardOp(first).sharding() ==
        import_testing::sharding(R"(<@mesh, [{"y"}, {}]>)"));
  Op add = opsNamed(*m, "stablehlo.add").front();
  CHECK(add.operand(0) == first.result(0));
  CHECK(add.operand(1) == second.result(0));
  // Unsharded: the call just takes what @f gives (for the results @f
  // shards).
  CHECK(
      shardingText(calls[2], "sdy.sharding") ==
      R"(#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{?}, {?}]>]>)");
  CHECK(calls[2].nextInBlock().name() == "stablehlo.add");
}

}  // namespace
}  // namespace shardkit
