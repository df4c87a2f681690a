// The aggressive strategy on hand-made factor tables.
#include "shardkit/factor_propagation/aggressive_factor_propagation.h"

#include <catch2/catch.hpp>

#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::parseMeshOrDie;
using testing::parseRuleOrDie;

struct Run {
  Mesh mesh;
  OpShardingRule rule;
  ShardingProjection projection;
  TensorFlags updated;

  Run(const FactorPropagation& strategy, const char* mesh_text,
      const char* rule_text, const std::vector<std::string>& operands,
      const std::vector<std::string>& results, bool is_elementwise = false)
      : mesh(parseMeshOrDie(mesh_text)), rule(parseRuleOrDie(rule_text)) {
    auto operand_shardings = testing::parseShardings(operands);
    auto result_shardings = testing::parseShardings(results);
    auto operand_ptrs = testing::pointers(operand_shardings);
    auto result_ptrs = testing::pointers(result_shardings);
    absl::StatusOr<ShardingProjection> built =
        ShardingProjection::build(operand_ptrs, result_ptrs, rule, mesh);
    REQUIRE(built.ok());
    projection = *std::move(built);
    std::vector<PropagationDirection> both(rule.numFactors(),
                                           PropagationDirection::kBoth);
    FactorPropagationOptions options;
    options.is_elementwise = is_elementwise;
    updated =
        strategy.propagate(projection, both, rule.factor_sizes, mesh, options);
  }

  // The axes of `factor` in `tensor` after propagation.
  std::string axes(int64_t tensor, int64_t factor) const {
    const FactorSharding* sharding = projection.tensor(tensor).find(factor);
    return sharding == nullptr ? "-" : toString(sharding->axes, mesh);
  }
};

const char* kMesh = R"(<["a"=2, "b"=2, "c"=2]>)";
const char* kThreeWay = "<([i], [i])->([i]) {i=8}>";

TEST_CASE("aggressive: each tensor takes what it can along a factor") {
  // T0 has ["a", "b"]; T1 is open; T2 replicates "b".
  std::vector<std::string> operands = {R"(<@mesh, [{"a", "b"}]>)",
                                       R"(<@mesh, [{?}]>)"};
  std::vector<std::string> results = {R"(<@mesh, [{?}], replicated={"b"}>)"};
  Run basic(basicFactorPropagation(), kMesh, kThreeWay, operands, results);
  CHECK(basic.axes(1, 0) == R"(["a"])");
  CHECK(basic.axes(2, 0) == R"(["a"])");
  Run aggressive(aggressiveFactorPropagation(), kMesh, kThreeWay, operands,
                 results);
  CHECK(aggressive.axes(1, 0) == R"(["a", "b"])");
  CHECK(aggressive.axes(2, 0) == R"(["a"])");
  CHECK(aggressive.updated == TensorFlags{false, true, true});

  // Closed in T2: basic gives up on everything, aggressive only on T2.
  results = {R"(<@mesh, [{}]>)"};
  Run basic_closed(basicFactorPropagation(), kMesh, kThreeWay, operands,
                   results);
  CHECK(basic_closed.updated == TensorFlags{false, false, false});
  Run aggressive_closed(aggressiveFactorPropagation(), kMesh, kThreeWay,
                        operands, results);
  CHECK(aggressive_closed.axes(1, 0) == R"(["a", "b"])");
  CHECK(aggressive_closed.axes(2, 0) == R"([])");
}

TEST_CASE("aggressive: conflicts across factors of C = dot(A, B)") {
  const char* dot = "<([i, k], [k, j])->([i, j]) {i=8, j=8, k=8}>";
  SECTION("a single choice") {
    // "a" shards i in A; B can take it along j since B doesn't map i.
    Run basic(basicFactorPropagation(), kMesh, dot,
              {R"(<@mesh, [{"a"}, {?}]>)", R"(<@mesh, [{?}, {?}]>)"},
              {R"(<@mesh, [{?}, {"a"}]>)"});
    CHECK(basic.axes(1, 1) == R"([])");
    Run aggressive(aggressiveFactorPropagation(), kMesh, dot,
                   {R"(<@mesh, [{"a"}, {?}]>)", R"(<@mesh, [{?}, {?}]>)"},
                   {R"(<@mesh, [{?}, {"a"}]>)"});
    CHECK(aggressive.axes(1, 1) == R"(["a"])");
  }
  SECTION("several choices: the larger source tensor wins") {
    const char* sized = "<([i, k], [k, j])->([i, j]) {i=4, j=8, k=4}>";
    Run run(aggressiveFactorPropagation(), kMesh, sized,
            {R"(<@mesh, [{"a"}, {?}]>)", R"(<@mesh, [{?}, {"a"}]>)"}, {""});
    CHECK(run.axes(2, 0) == R"([])");
    CHECK(run.axes(2, 1) == R"(["a"])");
  }
}

TEST_CASE("aggressive: factor order") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=2, "b"=2, "c"=8]>)");
  OpShardingRule rule =
      parseRuleOrDie("<([i, j], [i, j])->([i, j]) {i=8, j=8}>");
  auto operands = testing::parseShardings(
      {R"(<@mesh, [{}, {"a", "b"}]>)", R"(<@mesh, [{"c"}, {}]>)"});
  auto operand_ptrs = testing::pointers(operands);
  const TensorSharding* results[] = {nullptr};
  absl::StatusOr<ShardingProjection> projection =
      ShardingProjection::build(operand_ptrs, results, rule, mesh);
  REQUIRE(projection.ok());
  std::vector<AxisList> axes_per_factor = {
      compatibleMajorAxes(*projection, 0, PropagationDirection::kBoth),
      compatibleMajorAxes(*projection, 1, PropagationDirection::kBoth)};
  // Same source sizes: the earlier source tensor first...
  CHECK(aggressiveFactorOrder(*projection, axes_per_factor, rule.factor_sizes,
                              /*is_elementwise=*/false) ==
        std::vector<int64_t>{1, 0});
  // ...unless elementwise, where the more sharded factor goes first.
  CHECK(aggressiveFactorOrder(*projection, axes_per_factor, rule.factor_sizes,
                              /*is_elementwise=*/true) ==
        std::vector<int64_t>{0, 1});
}

}  // namespace
}  // namespace shardkit
