// The driver reuses the outcome of a step for a later step with the same
// rule, parameters and tensor shardings (step_memo.h). Steps that differ in
// any of them must still propagate on their own.
#include <catch2/catch.hpp>

#include "unit/propagation/driver_test_util.h"

namespace shardkit {
namespace {

using testing::firstOp;
using testing::parseModuleOrDie;
using testing::propagateOrDie;
using testing::shardingText;

// Two barriers share their (identity) rule and their operands' sharding:
// only their allowed direction differs.
constexpr const char* kBarriers = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8x8xf32>
  %1 = sdy.propagation_barrier %arg1 allowed_direction=BACKWARD : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
)";

TEST_CASE("driver memo: steps differing only in direction propagate apart") {
  auto module = parseModuleOrDie(kBarriers);
  propagateOrDie(*module);
  Op forward = firstOp(*module, "sdy.propagation_barrier");
  CHECK(shardingText(forward.result(0)) == R"(<@mesh, [{"x", ?}, {?}]>)");
  Op backward = forward.nextInBlock();
  REQUIRE(backward.name() == "sdy.propagation_barrier");
  CHECK(shardingText(backward.result(0)) == "");
}

// Three ops alike: the third repeats the first step exactly, the second has
// another operand sharding.
constexpr const char* kAlike = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %1 = stablehlo.abs %arg1 : tensor<8x8xf32>
  %2 = stablehlo.abs %arg2 : tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
)";

TEST_CASE("driver memo: a repeated step gives the same update, others not") {
  auto module = parseModuleOrDie(kAlike);
  PropagationStats stats = propagateOrDie(*module);
  Op first = firstOp(*module, "stablehlo.abs");
  Op second = first.nextInBlock();
  Op third = second.nextInBlock();
  CHECK(shardingText(first.result(0)) == R"(<@mesh, [{"x", ?}, {?}]>)");
  CHECK(shardingText(second.result(0)) == R"(<@mesh, [{?}, {"y", ?}]>)");
  CHECK(shardingText(third.result(0)) == R"(<@mesh, [{"x", ?}, {?}]>)");
  // A reused step still counts as a visit and its update as an update: the
  // three ops and the three function results.
  CHECK(stats.updates == 6);
}

TEST_CASE("write-back: ops given equal shardings share one dictionary") {
  // The abs ops have no attributes; the first and the third get the same
  // sharding, so they get one dictionary holding it (AttrDictRewrites).
  auto module = parseModuleOrDie(kAlike);
  propagateOrDie(*module);
  Op first = firstOp(*module, "stablehlo.abs");
  Op second = first.nextInBlock();
  Op third = second.nextInBlock();
  CHECK(first.discardableAttrs().sharesWith(third.discardableAttrs()));
  CHECK_FALSE(first.discardableAttrs().sharesWith(second.discardableAttrs()));
  CHECK(shardingText(third.result(0)) == R"(<@mesh, [{"x", ?}, {?}]>)");
  CHECK(shardingText(second.result(0)) == R"(<@mesh, [{?}, {"y", ?}]>)");
}

}  // namespace
}  // namespace shardkit
