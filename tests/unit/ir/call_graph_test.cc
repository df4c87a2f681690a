// CallGraph: callees and callers, the main function, cycles and the
// callers-first order.
#include "shardkit/dialect/func/call_graph.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseOrDie;

std::vector<std::string> names(const std::vector<FuncOp>& funcs) {
  std::vector<std::string> out;
  for (FuncOp f : funcs) out.emplace_back(f.name());
  return out;
}

CallGraph buildOrDie(Module& module) {
  absl::StatusOr<CallGraph> calls = CallGraph::build(module);
  REQUIRE(calls.ok());
  return *std::move(calls);
}

// A diamond: @top calls @left then @right, both call @leaf; @other calls
// nothing and nobody calls it. The modules lists them out of call order.
constexpr const char* kDiamond = R"(
func.func private @leaf(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @right(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @leaf(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @top(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @left(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @right(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @left(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @leaf(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @other(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
)";

TEST_CASE("call graph: callees, callers in walk order, calls per function") {
  auto m = parseOrDie(kDiamond);
  CallGraph calls = buildOrDie(*m);
  FuncOp leaf = calls.lookup("leaf");
  REQUIRE(leaf);
  CHECK_FALSE(calls.lookup("nope"));
  // @right comes before @left in the module, so its call is met first.
  absl::Span<const Op> to_leaf = calls.callsTo(leaf);
  REQUIRE(to_leaf.size() == 2);
  CHECK(calls.calleeOf(to_leaf[0]).op() == leaf.op());
  CHECK(to_leaf[0].parentOp() == calls.lookup("right").op());
  CHECK(to_leaf[1].parentOp() == calls.lookup("left").op());
  absl::Span<const Op> in_top = calls.callsIn(calls.lookup("top"));
  REQUIRE(in_top.size() == 2);
  CHECK(func::CallOp(in_top[0]).callee() == "left");
  CHECK(func::CallOp(in_top[1]).callee() == "right");
  CHECK(calls.callsTo(calls.lookup("top")).empty());
}

TEST_CASE("call graph: callers first, independent entries in module order") {
  auto m = parseOrDie(kDiamond);
  CallGraph calls = buildOrDie(*m);
  // A reverse post-order: @leaf after both its callers, and read backwards
  // the callees come in call order (@leaf, @left, @right, @top).
  CHECK(names(calls.callersFirst()) ==
        std::vector<std::string>{"top", "right", "left", "leaf", "other"});
}

TEST_CASE("call graph: the main function and the entry functions") {
  auto m = parseOrDie(kDiamond);
  CallGraph calls = buildOrDie(*m);
  CHECK_FALSE(calls.mainFunc());
  // Without a main function, every function nobody calls is an entry.
  CHECK(calls.isEntry(calls.lookup("top")));
  CHECK(calls.isEntry(calls.lookup("other")));
  CHECK_FALSE(calls.isEntry(calls.lookup("leaf")));

  auto with_main = parseOrDie(R"(
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @other(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
})");
  CallGraph main_calls = buildOrDie(*with_main);
  REQUIRE(main_calls.mainFunc());
  CHECK(main_calls.mainFunc().name() == "main");
  CHECK_FALSE(main_calls.isEntry(main_calls.lookup("other")));

  auto single = parseOrDie(R"(
func.func @only(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
})");
  CHECK(buildOrDie(*single).mainFunc().name() == "only");
}

TEST_CASE("call graph: calls in nested regions count") {
  auto m = parseOrDie(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<4xf32>) {
    %1 = func.call @f(%b) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
})");
  CallGraph calls = buildOrDie(*m);
  CHECK(calls.callsIn(calls.lookup("main")).size() == 1);
  CHECK(calls.callsTo(calls.lookup("f")).size() == 1);
}

TEST_CASE("call graph: a recursive graph is an error at the closing call") {
  auto m = parseOrDie(R"(
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  CallGraph calls = buildOrDie(*m);
  absl::Status status = calls.checkAcyclic();
  REQUIRE_FALSE(status.ok());
  std::string message(fromAbsl(status.message()));
  CHECK_THAT(message, Catch::Contains("test.mlir:11:3"));
  CHECK_THAT(message, Catch::Contains("recursive call graph: @f -> @g -> @f"));
  CHECK(buildOrDie(*parseOrDie(kDiamond)).checkAcyclic().ok());

  auto self = parseOrDie(R"(
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @main(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  CHECK_THAT(std::string(fromAbsl(buildOrDie(*self).checkAcyclic().message())),
             Catch::Contains("@main -> @main"));
}

TEST_CASE("call graph: a call to a missing function fails the build") {
  auto m = parseOrDie(kDiamond);
  CallGraph before = buildOrDie(*m);
  Op call = before.callsIn(before.lookup("top"))[0];
  call.setAttr("callee", Attribute::symbolRef("nope"));
  absl::StatusOr<CallGraph> calls = CallGraph::build(*m);
  REQUIRE_FALSE(calls.ok());
  CHECK_THAT(std::string(fromAbsl(calls.status().message())),
             Catch::Contains("'nope' does not reference a valid function"));
}

}  // namespace
}  // namespace shardkit
