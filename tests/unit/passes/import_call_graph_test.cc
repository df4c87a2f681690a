// The call-graph preparations: -sdy-flatten-call-graph (copies and their
// names), -sdy-pre-order-funcs, -sdy-propagate-sharding-from-func-to-call and
// -symbol-dce.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/passes/symbol_dce.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::funcNamed;
using import_testing::functionNames;
using import_testing::message;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

std::vector<std::string> callees(Op func) {
  std::vector<std::string> names;
  auto visit = [&](Op op) {
    if (isa<func::CallOp>(op)) names.emplace_back(func::CallOp(op).callee());
  };
  Module::walkOp(func, visit);
  return names;
}

// @main calls @foo twice; @foo calls @bar twice. A function @foo_0 already
// exists, so copies of @foo can't take that name.
constexpr const char* kTwiceTwice = R"(
func.func @main(%a: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  %0 = call @foo(%a) : (tensor<8xi32>) -> tensor<8xi32>
  %1 = call @foo(%a) : (tensor<8xi32>) -> tensor<8xi32>
  return %0, %1 : tensor<8xi32>, tensor<8xi32>
}
func.func private @foo(%a: tensor<8xi32>) -> tensor<8xi32> {
  %0 = call @bar(%a) : (tensor<8xi32>) -> tensor<8xi32>
  %1 = call @bar(%0) : (tensor<8xi32>) -> tensor<8xi32>
  return %1 : tensor<8xi32>
}
func.func private @bar(%a: tensor<8xi32>) -> tensor<8xi32> {
  return %a : tensor<8xi32>
}
func.func @foo_0(%a: tensor<8xi32>) -> tensor<8xi32> {
  return %a : tensor<8xi32>
}
)";

TEST_CASE("flatten-call-graph: one call per function, copies named uniquely") {
  auto m = parse(kTwiceTwice);
  requireOk(flattenCallGraph(*m));
  // Depth first: @main's first call keeps @foo and the walk goes into it;
  // its second call of @bar gets @bar_0. @main's second call of @foo gets a
  // copy whose calls get copies of their callees first: @bar_1, then
  // @bar_0_2 (a copy of @bar_0: one counter for all names), then @foo_3
  // (@foo_0 was taken).
  CHECK(functionNames(*m) == std::vector<std::string>{"main", "foo", "bar",
                                                      "foo_0", "bar_0", "bar_1",
                                                      "bar_0_2", "foo_3"});
  CHECK(callees(funcNamed(*m, "main")) ==
        std::vector<std::string>{"foo", "foo_3"});
  CHECK(callees(funcNamed(*m, "foo")) ==
        std::vector<std::string>{"bar", "bar_0"});
  CHECK(callees(funcNamed(*m, "foo_3")) ==
        std::vector<std::string>{"bar_1", "bar_0_2"});
  // Copies remember the function they copy; the copy of a copy too.
  CHECK(toString(funcNamed(*m, "bar_0_2")->attr(kOriginalFuncNameAttr)) ==
        "\"bar\"");
  CHECK(toString(funcNamed(*m, "foo_3")->attr(kOriginalFuncNameAttr)) ==
        "\"foo\"");
  CHECK_FALSE(funcNamed(*m, "bar")->hasAttr(kOriginalFuncNameAttr));
  // Each function is called at most once now.
  std::vector<std::string> all;
  for (Op call : opsNamed(*m, "func.call")) {
    all.emplace_back(func::CallOp(call).callee());
  }
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
}

TEST_CASE("flatten-call-graph: a recursive graph is an error") {
  auto m = parse(R"(
func.func @main(%a: tensor<8xi32>) -> tensor<8xi32> {
  %0 = call @f(%a) : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
func.func private @f(%a: tensor<8xi32>) -> tensor<8xi32> {
  %0 = call @f(%a) : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
})");
  absl::Status status = flattenCallGraph(*m);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(message(status),
             Catch::Contains("test.mlir:7:3: error: 'func.call' op recursive "
                             "call graph: @f -> @f"));
}

TEST_CASE("pre-order-funcs: every function after its callers") {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2]>
func.func private @leaf() {
  return
}
func.func private @mid() {
  func.call @leaf() : () -> ()
  return
}
func.func @main() {
  func.call @mid() : () -> ()
  return
})");
  requireOk(preOrderFuncs(*m));
  CHECK(functionNames(*m) == std::vector<std::string>{"main", "mid", "leaf"});
  // Other top-level ops stay in front.
  CHECK(m->body().front().name() == "sdy.mesh");
}

TEST_CASE("propagate-sharding-from-func-to-call: only calls without one") {
  auto m = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8xf32>, %b: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0:2 = call @f(%a, %b) : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  %1:2 = call @f(%a, %b) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>)
  %2 = call @g(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0#0, %1#1 : tensor<8xf32>, tensor<4xf32>
}
func.func private @f(%a: tensor<8xf32>, %b: tensor<4xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<4xf32>) {
  return %a, %b : tensor<8xf32>, tensor<4xf32>
}
func.func private @g(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
})");
  requireOk(propagateShardingFromFuncToCall(*m));
  std::vector<Op> calls = opsNamed(*m, "func.call");
  // The unsharded result gets a fully open sharding on the same mesh.
  CHECK(shardingText(calls[0], "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{?}]>]>)");
  CHECK(shardingText(calls[1], "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>)");
  CHECK_FALSE(calls[2].hasAttr("sdy.sharding"));
}

TEST_CASE("symbol-dce: private functions no live symbol uses go") {
  auto m = parse(R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @used(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @target(%0) {called_computations = [@by_attr]} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @used(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @transitive(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @transitive(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
func.func private @by_attr(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
func.func private @dead(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @dead_callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @dead_callee(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
func.func @public_unused(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
})");
  requireOk(symbolDce(*m));
  CHECK(functionNames(*m) == std::vector<std::string>{"main", "used",
                                                      "transitive", "by_attr",
                                                      "public_unused"});
}

}  // namespace
}  // namespace shardkit
