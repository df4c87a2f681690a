// Where a value's sharding lives (sharding_site.h): shardable values, edge
// owners, sources and targets, and the two views of a manual computation.
#include "shardkit/dialect/sdy/sharding_site.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::sharding;

std::string text(const std::optional<TensorSharding>& s) {
  return s ? toString(*s) : "";
}

Op firstOp(Module& module, std::string_view name) {
  Op found;
  module.walk([&](Op op) {
    if (!found && op.name() == name) found = op;
  });
  REQUIRE(found);
  return found;
}

// `%0` is a while whose result 0 has an edge op; `EDGE_USE` is where a
// second use of the while result may go.
constexpr std::string_view kWhile = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %2 = stablehlo.compare  LT, %iterArg, %arg1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %3 = stablehlo.custom_call @any(%2) : (tensor<8xi1>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %2 = stablehlo.abs %iterArg : tensor<8xf32>
    stablehlo.return %2 : tensor<8xf32>
  }
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"y"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)";

TEST_CASE("sharding site: a while's targets share its edge op's sharding") {
  std::unique_ptr<Module> m = testing::parseOrDie(kWhile);
  Op loop = firstOp(*m, "stablehlo.while");
  Op edge = firstOp(*m, "sdy.data_flow_edge");
  Value result = loop.result(0);
  Value cond_arg = loop.region(0).front().argument(0);
  Value body_arg = loop.region(1).front().argument(0);
  Op body_return = loop.region(1).front().back();
  Op cond_return = loop.region(0).front().back();

  CHECK(isDataFlowOp(loop));
  CHECK(!isDataFlowOp(edge));
  CHECK(dataFlowEdgeOwners(loop) == std::vector<Value>{result});
  for (Value target : {result, cond_arg, body_arg}) {
    CHECK(edgeOwnerOfTarget(target) == result);
    CHECK(shardableValue(target) == edge.result(0));
    CHECK(text(getSharding(target)) == R"(<@mesh, [{"y"}]>)");
  }
  CHECK(dataFlowEdgeOp(result) == edge);
  CHECK(!dataFlowEdgeOp(Value()));
  CHECK(edgeOwnerOfSource(loop, 0) == result);
  CHECK(edgeOwnerOfSource(body_return, 0) == result);
  // The cond's terminator returns the loop condition, not a loop value.
  CHECK(!edgeOwnerOfSource(cond_return, 0));

  std::optional<DataFlowEdge> e = dataFlowEdgeOf(result);
  REQUIRE(e);
  CHECK(e->op == loop);
  CHECK(e->sources ==
        std::vector<Value>{loop.operand(0), body_return.operand(0)});
  CHECK(e->non_owner_targets == std::vector<Value>{cond_arg, body_arg});

  // Writing a target's sharding writes the edge op's; the while op's own
  // list is the owner's, apart until the edge is sunk.
  CHECK(setSharding(body_arg, sharding(R"(<@mesh, [{"x"}]>)")));
  CHECK(text(getSharding(cond_arg)) == R"(<@mesh, [{"x"}]>)");
  CHECK(!getEdgeOwnerSharding(result));
  setEdgeOwnerSharding(result, sharding(R"(<@mesh, [{?}]>)"));
  CHECK(text(getEdgeOwnerSharding(result)) == R"(<@mesh, [{?}]>)");
  CHECK(text(getSharding(result)) == R"(<@mesh, [{"x"}]>)");
}

TEST_CASE(
    "sharding site: a shardable value's sharding read and written "
    "without looking for it again") {
  std::unique_ptr<Module> m = testing::parseOrDie(kWhile);
  Op loop = firstOp(*m, "stablehlo.while");
  Op edge = firstOp(*m, "sdy.data_flow_edge");
  Value arg = m->functions().front().region(0).front().argument(0);
  Value abs = loop.region(1).front().front().result(0);
  for (Value shardable : {edge.result(0), arg, abs}) {
    REQUIRE(shardableValue(shardable) == shardable);
    std::optional<TensorSharding> scratch, scratch_too;
    CHECK(findEdgeOwnerSharding(shardable, scratch) ==
          findSharding(shardable, scratch_too));
    TensorSharding s = sharding(R"(<@mesh, [{"x", "y"}]>)");
    CHECK(setEdgeOwnerSharding(shardable, s, ShardingAttrs::of(s)));
    CHECK(text(getSharding(shardable)) == R"(<@mesh, [{"x", "y"}]>)");
  }
  // The while's own result is an edge owner: its own list, not the edge's.
  std::optional<TensorSharding> scratch;
  CHECK(findEdgeOwnerSharding(loop.result(0), scratch) == nullptr);
  TensorSharding s = sharding(R"(<@mesh, [{?}]>)");
  CHECK(setEdgeOwnerSharding(loop.result(0), s, ShardingAttrs::of(s)));
  CHECK(text(getEdgeOwnerSharding(loop.result(0))) == R"(<@mesh, [{?}]>)");
  CHECK(text(getSharding(loop.result(0))) == R"(<@mesh, [{"x", "y"}]>)");
}

TEST_CASE("sharding site: a while without edge ops has unsharded arguments") {
  std::string without = std::string(kWhile);
  without.replace(without.find("  %1 = sdy.data_flow_edge"),
                  without.find("  return") - without.find("  %1 = sdy"), "");
  without.replace(without.find("return %1"), 9, "return %0");
  std::unique_ptr<Module> m = testing::parseOrDie(without);
  Op loop = firstOp(*m, "stablehlo.while");
  Value body_arg = loop.region(1).front().argument(0);
  CHECK(shardableValue(loop.result(0)) == loop.result(0));
  CHECK(!shardableValue(body_arg));
  CHECK(!getSharding(body_arg));
  CHECK(!setSharding(body_arg, sharding(R"(<@mesh, [{"x"}]>)")));
  // The result keeps its sharding on the while op.
  CHECK(setSharding(loop.result(0), sharding(R"(<@mesh, [{"x"}]>)")));
  CHECK(text(getEdgeOwnerSharding(loop.result(0))) == R"(<@mesh, [{"x"}]>)");
}

TEST_CASE("sharding site: an edge op counts only as its owner's only use") {
  std::string shared = std::string(kWhile);
  shared.replace(shared.find("return %1"), 9, "return %0");
  ParseOptions unverified;
  unverified.verify = false;
  std::unique_ptr<Module> m = testing::parseOrDie(shared, unverified);
  Op loop = firstOp(*m, "stablehlo.while");
  CHECK(!dataFlowEdgeOp(loop.result(0)));
  CHECK(shardableValue(loop.result(0)) == loop.result(0));
}

TEST_CASE("sharding site: a manual computation's body sees no manual axes") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
sdy.mesh @mesh = <["m"=2, "x"=2, "r"=2]>
func.func @main(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"m", "x"}, {}], replicated={"r"}>] out_shardings=[<@mesh, [{"m"}, {}]>] manual_axes={"m"} (%arg1: tensor<8x8xf32>) {
    %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg1 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
)");
  Op manual = firstOp(*m, "sdy.manual_computation");
  Value body_arg = manual.region(0).front().argument(0);
  CHECK(edgeOwnerOfTarget(body_arg) == body_arg);
  CHECK(shardableValue(body_arg) == body_arg);
  CHECK(text(getSharding(body_arg)) ==
        R"(<@mesh, [{"x"}, {}], replicated={"r"}>)");
  std::optional<TensorSharding> scratch;
  const TensorSharding* found = findSharding(body_arg, scratch);
  REQUIRE(found);
  CHECK(found == &*scratch);  // computed: the stored one has "m"

  // Setting it from inside puts the manual axes (and the replicated ones)
  // back.
  CHECK(setSharding(body_arg, sharding(R"(<@mesh, [{}, {"x"}]>)")));
  CHECK(
      toString(
          manual.attr("in_shardings").as<TensorShardingPerValue>()->items[0]) ==
      R"(<@mesh, [{"m"}, {"x"}], replicated={"r"}>)");
  // A result is seen from outside: with its manual axes.
  CHECK(text(getSharding(manual.result(0))) == R"(<@mesh, [{"m"}, {}]>)");
  CHECK(edgeOwnerOfSource(manual, 0) == body_arg);

  // The reduction body's scalar arguments have no place for a sharding.
  Op reduce = firstOp(*m, "stablehlo.reduce");
  Value scalar = reduce.region(0).front().argument(0);
  CHECK(!edgeOwnerOfTarget(scalar));
  CHECK(!shardableValue(scalar));
  CHECK(!findSharding(scalar, scratch));
}

}  // namespace
}  // namespace shardkit
