// --explain-op: choosing the op, and the factor table text.
#include "shardkit/propagation/explain.h"

#include <catch2/catch.hpp>

#include "unit/propagation/driver_test_util.h"

namespace shardkit {
namespace {

using testing::parseModuleOrDie;

// %arg0's "x" (size 3) doesn't divide factor i (size 2) of the reshape: it
// is i's overflow axis, and j, after it, is closed.
constexpr const char* kModule = R"(
sdy.mesh @mesh = <["x"=3, "y"=2]>
func.func @main(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2x3x4xf32>, tensor<i32>) {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.reshape %arg0 : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<2x3x4xf32>
  %2:2 = stablehlo.optimization_barrier %1, %c : tensor<2x3x4xf32>, tensor<i32>
  return %2#0, %2#1 : tensor<2x3x4xf32>, tensor<i32>
}
)";

std::string explainOrDie(Op op, const ExplainOptions& options = {}) {
  REQUIRE(op);
  absl::StatusOr<std::string> text = explainOp(op, options);
  if (!text.ok()) FAIL(std::string(fromAbsl(text.status().message())));
  return *text;
}

TEST_CASE("explain: ops are found by name or by printed result name") {
  auto module = parseModuleOrDie(kModule);
  CHECK(findExplainedOp(*module, "stablehlo.reshape").name() ==
        "stablehlo.reshape");
  CHECK(findExplainedOp(*module, "%0").name() == "stablehlo.reshape");
  CHECK(findExplainedOp(*module, "%1").name() == "sdy.propagation_barrier");
  // A named result, one result of a group, and the group itself.
  CHECK(findExplainedOp(*module, "%c").name() == "stablehlo.constant");
  CHECK(findExplainedOp(*module, "%2#1").name() ==
        "stablehlo.optimization_barrier");
  CHECK(findExplainedOp(*module, "%2").name() ==
        "stablehlo.optimization_barrier");
  CHECK_FALSE(findExplainedOp(*module, "%3"));
  CHECK_FALSE(findExplainedOp(*module, "stablehlo.dot"));
}

TEST_CASE("explain: the table before and after one step") {
  auto module = parseModuleOrDie(kModule);
  std::string text = explainOrDie(findExplainedOp(*module, "%0"));
  // The table reads better unbroken.
  // clang-format off
  CHECK(text ==
        "factor table of %0 = stablehlo.reshape in @main\n"
        "rule: ([ij, k])->([i, j, k]) {i=2, j=3, k=4}\n"
        "mesh: @mesh = <[\"x\"=3, \"y\"=2]>\n"
        "\n"
        "before:\n"
        "| tensor          | i: 2, pass-through | j: 3, pass-through | k: 4, pass-through | replicated |\n"
        "|-----------------|--------------------|--------------------|--------------------|------------|\n"
        "| operand 0 %arg0 | {} +overflow{\"x\"}  | {}                 | {\"y\"}              |            |\n"
        "| result 0 %0     | {?}                | {?}                | {?}                |            |\n"
        "\n"
        "after one aggressive step:\n"
        "| tensor          | i: 2, pass-through | j: 3, pass-through | k: 4, pass-through | replicated |\n"
        "|-----------------|--------------------|--------------------|--------------------|------------|\n"
        "| operand 0 %arg0 | {} +overflow{\"x\"}  | {}                 | {\"y\"}              |            |\n"
        "| result 0 %0     | {?}                | {?}                | {\"y\", ?}           |            |\n"
        "updated: result 0 %0 = <@mesh, [{?}, {?}, {\"y\", ?}]>\n"
        "\n"
        "no sharding origins recorded for these tensors: propagate with "
        "debug-sharding-origins=true to see where each axis came from\n");
  // clang-format on
}

TEST_CASE("explain: where each factor's axes came from, from the records") {
  auto module = parseModuleOrDie(R"(
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c", ?}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
)");
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.debug.sharding_origins = true;
  options.debug.propagation_edges = true;
  testing::propagateOrDie(*module, options);
  std::string text = explainOrDie(findExplainedOp(*module, "%0"));
  // clang-format off
  CHECK(text.find(
        "where each axis came from (sdy.sharding_origins):\n"
        "| tensor          | i: 8            | j: 4             | k: 16           |\n"
        "|-----------------|-----------------|------------------|-----------------|\n"
        "| operand 0 %arg0 | \"a\" <- self     | -                | \"b\" <- input: 1 |\n"
        "| operand 1 %arg1 | -               | \"c\" <- output: 0 | \"b\" <- self     |\n"
        "| result 0 %0     | \"a\" <- input: 0 | \"c\" <- output: 0 | -               |\n") !=
        std::string::npos);
  // clang-format on
  CHECK(text.find("steps that changed this op (sdy.propagation_edges):\n"
                  "  step 1: \"a\" = operand-0 -> [result-0]\n") !=
        std::string::npos);
}

TEST_CASE("explain: kinds, replicated axes and a barrier's direction") {
  auto module = parseModuleOrDie(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a"}], replicated={"b"}>}) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD : tensor<4xf32>
  return %1 : tensor<4xf32>
}
)");
  std::string reduce =
      explainOrDie(findExplainedOp(*module, "stablehlo.reduce"),
                   ExplainOptions{PropagationStrategy::kBasic, false});
  CHECK_THAT(reduce, Catch::Contains("| j: 8, reduction |"));
  CHECK_THAT(reduce, Catch::Contains("after one basic step:"));
  // The operand's replicated "b" is in the last column.
  CHECK_THAT(reduce, Catch::Contains("| {\"a\"}           | \"b\"        |"));

  std::string barrier = explainOrDie(findExplainedOp(*module, "%1"));
  CHECK_THAT(barrier, Catch::Contains("allowed direction: FORWARD\n"));
}

TEST_CASE("explain: ops propagation does nothing for say why") {
  auto module = parseModuleOrDie(kModule);
  CHECK(explainOrDie(findExplainedOp(*module, "func.return")) ==
        "factor table of func.return in @main\n"
        "the op has no sharding rule: propagation skips it\n");
  // The optimization barrier has no rule of its own (its data-flow edges
  // propagate instead).
  CHECK_THAT(explainOrDie(findExplainedOp(*module, "%2")),
             Catch::Contains("no sharding rule"));
  // Nothing around the barrier is sharded yet.
  CHECK_THAT(explainOrDie(findExplainedOp(*module, "%1")),
             Catch::Contains("no common mesh"));
}

}  // namespace
}  // namespace shardkit
