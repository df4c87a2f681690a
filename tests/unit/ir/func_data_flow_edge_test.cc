// sdy.func_data_flow_edge: its syntax and verifier, where the sharding of a
// wrapped argument or call result lives, the edge's sources; func.call
// checked against its callee; deep copies of ops.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/clone.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseError;
using testing::parseOrDie;

// @bar's argument and @main's call result are wrapped in edges; the call
// result's edge holds {"x"}, the argument's none.
constexpr const char* kEdges = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func private @bar(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %2 = call @bar(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
)";

Op firstOf(Module& m, std::string_view name) {
  Op found;
  m.walk([&](Op op) {
    if (!found && op.name() == name) found = op;
  });
  REQUIRE(found);
  return found;
}

std::string text(const std::optional<TensorSharding>& s) {
  return s ? toString(*s) : "none";
}

TEST_CASE("func_data_flow_edge: read, verified and printed back") {
  auto m = parseOrDie(kEdges);
  std::string printed = printModule(*m);
  CHECK_THAT(
      printed,
      Catch::Contains("%0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>"));
  CHECK_THAT(printed,
             Catch::Contains("sdy.func_data_flow_edge %0 {sdy.sharding = "
                             "#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>} "
                             ": tensor<8xf32>"));
  CHECK(isa<sdy::FuncDataFlowEdgeOp>(firstOf(*m, "sdy.func_data_flow_edge")));
}

TEST_CASE("func_data_flow_edge: the verifier's rules") {
  auto wrap = [](const std::string& body, const std::string& args) {
    return "func.func @f(" + args + ") -> tensor<8xf32> {\n" + body + "}";
  };
  CHECK_THAT(parseError(R"(
func.func @f(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = sdy.func_data_flow_edge %arg0 : tensor<?xf32>
  return %0 : tensor<?xf32>
})"),
             Catch::Contains("to have a static-shaped result"));
  CHECK_THAT(
      parseError(wrap("  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>\n"
                      "  return %arg0 : tensor<8xf32>\n",
                      "%arg0: tensor<8xf32>")),
      Catch::Contains("expected operand of sdy.func_data_flow_edge to have a "
                      "single user"));
  CHECK_THAT(
      parseError(wrap("  %c = stablehlo.abs %arg0 : tensor<8xf32>\n"
                      "  %0 = sdy.func_data_flow_edge %c : tensor<8xf32>\n"
                      "  return %0 : tensor<8xf32>\n",
                      "%arg0: tensor<8xf32>")),
      Catch::Contains("to be a result of call op."));
  CHECK_THAT(parseError(R"(
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"n">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = sdy.func_data_flow_edge %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
             Catch::Contains("to be a block argument of a func op."));
}

TEST_CASE("func_data_flow_edge: the wrapped value's sharding is the edge's") {
  auto m = parseOrDie(kEdges);
  FuncOp bar(m->functions().front());
  Op arg_edge = firstOf(*m, "sdy.func_data_flow_edge");
  CHECK(funcDataFlowEdgeOp(bar.argument(0)) == arg_edge);
  CHECK(shardableValue(bar.argument(0)) == arg_edge.result(0));
  // The argument attribute stays where it is, but the argument's sharding is
  // the edge's (none yet).
  CHECK(text(getSharding(bar.argument(0))) == "none");
  CHECK(text(getEdgeOwnerSharding(bar.argument(0))) == R"(<@mesh, [{"y"}]>)");

  Op call = firstOf(*m, "func.call");
  CHECK(text(getSharding(call.result(0))) == R"(<@mesh, [{"x"}]>)");
  REQUIRE(
      setSharding(call.result(0), testing::sharding(R"(<@mesh, [{"y"}]>)")));
  CHECK_FALSE(call.hasAttr("sdy.sharding"));
  CHECK(text(getSharding(funcDataFlowEdgeOp(call.result(0)).result(0))) ==
        R"(<@mesh, [{"y"}]>)");
  // The second call's result has no edge: it is its own shardable value.
  std::vector<Op> calls;
  m->walk([&](Op op) {
    if (isa<func::CallOp>(op)) calls.push_back(op);
  });
  CHECK(shardableValue(calls[1].result(0)) == calls[1].result(0));
}

TEST_CASE("func_data_flow_edge: sources, and the edges a source feeds") {
  auto m = parseOrDie(kEdges);
  absl::StatusOr<CallGraph> calls = CallGraph::build(*m);
  REQUIRE(calls.ok());
  FuncOp bar = calls->lookup("bar");
  FuncOp main = calls->lookup("main");
  absl::Span<const Op> call_ops = calls->callsIn(main);
  // The argument's sources: operand 0 of both calls.
  Op arg_edge = funcDataFlowEdgeOp(bar.argument(0));
  std::vector<OperandRef> sources = funcEdgeSourceUses(arg_edge, *calls);
  REQUIRE(sources.size() == 2);
  CHECK(sources[0].user == call_ops[0]);
  CHECK(sources[1].user == call_ops[1]);
  // The call result's source: @bar's returned value.
  Op result_edge = funcDataFlowEdgeOp(call_ops[0].result(0));
  std::vector<OperandRef> from_callee = funcEdgeSourceUses(result_edge, *calls);
  REQUIRE(from_callee.size() == 1);
  CHECK(from_callee[0].user == bar.returnOp());

  std::vector<Op> fed;
  appendFuncEdgesOfSource(call_ops[1], 0, *calls, fed);
  CHECK(fed == std::vector<Op>{arg_edge});
  fed.clear();
  // @bar's return feeds the edges of its calls' results (only the first
  // call has one).
  appendFuncEdgesOfSource(bar.returnOp(), 0, *calls, fed);
  CHECK(fed == std::vector<Op>{result_edge});
  fed.clear();
  appendFuncEdgesOfSource(firstOf(*m, "stablehlo.negate"), 0, *calls, fed);
  CHECK(fed.empty());
}

TEST_CASE("func.call: checked against its callee") {
  auto call_of = [](const std::string& call) {
    return R"(
func.func private @f(%a: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.slice %a [0:4] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @main(%a: tensor<8xf32>, %b: tensor<4xf32>) {
  )" + call +
           R"(
  return
})";
  };
  CHECK(parseError(call_of(
            "%0 = call @f(%a) : (tensor<8xf32>) -> tensor<4xf32>")) == "");
  CHECK_THAT(parseError(call_of(
                 "%0 = call @g(%a) : (tensor<8xf32>) -> tensor<4xf32>")),
             Catch::Contains(
                 "'func.call' op 'g' does not reference a valid function"));
  CHECK_THAT(parseError(call_of(
                 "%0 = call @f(%a, %a) : (tensor<8xf32>, tensor<8xf32>) -> "
                 "tensor<4xf32>")),
             Catch::Contains("incorrect number of operands for callee"));
  CHECK_THAT(
      parseError(
          call_of("%0 = call @f(%b) : (tensor<4xf32>) -> tensor<4xf32>")),
      Catch::Contains("operand type mismatch: expected operand type "
                      "'tensor<8xf32>', but provided 'tensor<4xf32>' for "
                      "operand number 0"));
  CHECK_THAT(parseError(call_of(
                 "%0 = call @f(%a) : (tensor<8xf32>) -> tensor<8xf32>")),
             Catch::Contains("result type mismatch at index 0"));
  CHECK_THAT(parseError(call_of("call @f(%a) : (tensor<8xf32>) -> ()")),
             Catch::Contains("incorrect number of results for callee"));
}

TEST_CASE("clone: a deep copy renames what it copies, not what is above") {
  auto m = parseOrDie(R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %a {attr = 1 : i64} : tensor<8xf32>
  %1 = stablehlo.while(%i = %0) : tensor<8xf32>
    cond {
    %c = stablehlo.custom_call @any(%i) : (tensor<8xf32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %2 = stablehlo.add %i, %0 : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  return %1 : tensor<8xf32>
})");
  Op loop = firstOf(*m, "stablehlo.while");
  Op abs = firstOf(*m, "stablehlo.abs");
  ValueMap map;
  Op copy = cloneOp(loop, map);
  loop.parentBlock().insertAfter(loop, copy);
  CHECK(map.at(loop.result(0)) == copy.result(0));
  CHECK(copy.operand(0) == abs.result(0));
  REQUIRE(copy.numRegions() == 2);
  Block body = copy.region(1).front();
  REQUIRE(body.numArguments() == 1);
  Op add = body.front();
  // The block argument is the copy's; the value defined above is shared.
  CHECK(add.operand(0) == body.argument(0));
  CHECK(add.operand(1) == abs.result(0));
  CHECK(body.back().operand(0) == add.result(0));
  CHECK(copy.region(0).front().front().operand(0) ==
        copy.region(0).front().argument(0));

  ValueMap abs_map;
  Op abs_copy = cloneOp(abs, abs_map);
  CHECK(abs_copy.attr("attr") == abs.attr("attr"));
  CHECK(abs_copy.location() == abs.location());
}

}  // namespace
}  // namespace shardkit
