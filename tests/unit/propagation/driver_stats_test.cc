// The propagation driver's worklist and rounds, seen through
// PropagationStats: how many fixed-point computations run, and which ops are
// visited again (only those next to a value whose sharding changed).
#include <catch2/catch.hpp>

#include "shardkit/factor_propagation/priorities.h"
#include "unit/propagation/driver_test_util.h"

namespace shardkit {
namespace {

using testing::firstOp;
using testing::funcResultText;
using testing::parseModuleOrDie;
using testing::propagateOrDie;
using testing::shardingText;

// Forward chain: each op changes only what comes after it.
constexpr const char* kChain = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";

TEST_CASE("driver: a forward chain visits every op once") {
  auto module = parseModuleOrDie(kChain);
  PropagationStats stats = propagateOrDie(*module);
  CHECK(stats.rounds == 1);
  // abs and negate once each, and the function result before and after the
  // worklist.
  CHECK(stats.op_visits == 4);
  // %0, %1 and the function result.
  CHECK(stats.updates == 3);
  CHECK(funcResultText(*module, 0) == R"(<@mesh, [{"x", ?}, {?}]>)");
}

TEST_CASE("driver: an op is visited again only when a neighbour changed") {
  // The add shards %0 on dim 1 (from %arg1), so abs, which defines %0, is
  // visited again and passes "y" on to %arg0. The add is not queued again by
  // its own updates, and abs's second visit changes nothing the add sees.
  auto module = parseModuleOrDie(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)");
  PropagationStats stats = propagateOrDie(*module);
  CHECK(stats.rounds == 1);
  // abs, add, abs again, plus the function result twice.
  CHECK(stats.op_visits == 5);
  FuncOp func(module->functions().front());
  CHECK(shardingText(func.argument(0)) == R"(<@mesh, [{"x"}, {"y", ?}]>)");
  CHECK(shardingText(func.argument(1)) == R"(<@mesh, [{"x", ?}, {"y"}]>)");
  CHECK(shardingText(firstOp(*module, "stablehlo.abs").result(0)) ==
        R"(<@mesh, [{"x", ?}, {"y", ?}]>)");
}

TEST_CASE("driver: nothing sharded, nothing updated, every op visited once") {
  auto module = parseModuleOrDie(R"(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.sine %0 : tensor<8xf32>
  %2 = stablehlo.cosine %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
)");
  PropagationStats stats = propagateOrDie(*module);
  CHECK(stats.op_visits == 3 + 2);
  CHECK(stats.updates == 0);
}

TEST_CASE("driver: op-priority rounds are five fixed points") {
  auto module = parseModuleOrDie(kChain);
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.op_priorities = true;
  PropagationStats stats = propagateOrDie(*module, options);
  CHECK(stats.rounds == kNumOpPriorityRounds);
  // Elementwise ops propagate in the first round already. The second round
  // visits them again (their own step changed their results), the other
  // three skip them: same directions, nothing changed since. The function
  // results are visited twice per round.
  CHECK(stats.op_visits == 4 + 4 + 2 + 2 + 2);
  CHECK(stats.skipped_visits == 2 + 2 + 2);
  CHECK(stats.updates == 3);
}

TEST_CASE("driver: basic-then-aggressive runs two fixed points per round") {
  auto module = parseModuleOrDie(kChain);
  PropagationOptions options;
  options.strategy = PropagationStrategy::kBasicThenAggressive;
  PropagationStats stats = propagateOrDie(*module, options);
  CHECK(stats.rounds == 2);
  // The basic fixed point does all the work; the aggressive one only
  // confirms it.
  CHECK(stats.updates == 3);
  CHECK(stats.op_visits == 2 * 4);
}

TEST_CASE("driver: user priorities multiply the op-priority rounds") {
  auto module = parseModuleOrDie(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {"y"}p3]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  PropagationOptions options;
  options.user_priorities = true;
  options.op_priorities = true;
  PropagationStats stats = propagateOrDie(*module, options);
  // Rounds p0 and p3, five op-priority rounds each.
  CHECK(stats.rounds == 2 * kNumOpPriorityRounds);
  // The priorities are gone at the end.
  FuncOp func(module->functions().front());
  CHECK(shardingText(func.argument(0)) == R"(<@mesh, [{"x"}, {"y"}]>)");
  CHECK(shardingText(firstOp(*module, "stablehlo.abs").result(0)) ==
        R"(<@mesh, [{"x", ?}, {"y", ?}]>)");
}

TEST_CASE("driver: a dynamic shape is an error at its op") {
  auto module = parseModuleOrDie(R"(
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.abs %arg0 : tensor<?xf32>
  return %0 : tensor<?xf32>
}
)");
  absl::StatusOr<PropagationStats> stats = propagate(*module);
  REQUIRE_FALSE(stats.ok());
  CHECK(stats.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK_THAT(std::string(fromAbsl(stats.status().message())),
             Catch::Contains("test.mlir:3:3: error: Shardy propagation only "
                             "supports ranked tensors with a static shape"));
}

}  // namespace
}  // namespace shardkit
