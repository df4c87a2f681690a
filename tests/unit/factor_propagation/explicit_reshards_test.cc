// findCommonAxes: the factor shardings an op is resharded to, over plain
// values (no IR).
#include "shardkit/factor_propagation/explicit_reshards.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::parseMeshOrDie;
using testing::parseRuleOrDie;
using testing::parseShardingOrDie;
using testing::projectOrDie;
using testing::resolvedList;

AxesPerFactor commonAxes(const std::string& mesh_text,
                         const std::string& rule_text,
                         const std::vector<std::string>& operands,
                         const std::vector<std::string>& results,
                         const std::vector<int64_t>& sizes) {
  Mesh mesh = parseMeshOrDie(mesh_text);
  OpShardingRule rule = parseRuleOrDie(rule_text);
  ShardingProjection projection = projectOrDie(mesh, rule, operands, results);
  return findCommonAxes(projection, rule, sizes, mesh);
}

const char* kMesh = R"(<["x"=4, "y"=2, "z"=4]>)";

TEST_CASE("two non-scalar tensors: the more sharded one wins whole") {
  // Operand [x], result [y] on an elementwise op: x (size 4) beats y.
  AxesPerFactor axes = commonAxes(
      kMesh, "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=32}>",
      {R"(<@m, [{"x"}, {}]>)"}, {R"(<@m, [{"y"}, {}]>)"}, {128, 128});
  Mesh mesh = parseMeshOrDie(kMesh);
  CHECK(axes[0] == resolvedList(R"({"x"})", mesh));
  CHECK(axes[1].empty());
}

TEST_CASE("the greedy search ranks by tensor volume and cuts overlaps") {
  // add(a, b) -> r: both operands shard i by x, the result shards j by
  // `result_j`; i takes x, and j keeps what does not overlap it.
  struct Case {
    const char* result_j;
    const char* expected_j;
  };
  for (const Case& c : {Case{R"("y")", R"({"y"})"}, Case{R"("x")", "{}"}}) {
    AxesPerFactor axes = commonAxes(
        kMesh, "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=32}>",
        {R"(<@m, [{"x"}, {}]>)", R"(<@m, [{"x"}, {}]>)"},
        {std::string("<@m, [{}, {") + c.result_j + "}]>"}, {128, 128, 128});
    Mesh mesh = parseMeshOrDie(kMesh);
    INFO(c.result_j);
    CHECK(axes[0] == resolvedList(R"({"x"})", mesh));
    CHECK(axes[1] == resolvedList(c.expected_j, mesh));
  }
}

TEST_CASE("a need-replication factor's axes move to a batching factor") {
  // Cholesky-like: i is a batch dim, j needs replication.
  AxesPerFactor axes =
      commonAxes(kMesh,
                 "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} "
                 "need_replication={j}>",
                 {R"(<@m, [{}, {"x"}]>)"}, {R"(<@m, [{}, {}]>)"}, {64, 64});
  Mesh mesh = parseMeshOrDie(kMesh);
  CHECK(axes[0] == resolvedList(R"({"x"})", mesh));
  CHECK(axes[1].empty());
}

TEST_CASE("axisSetDifference keeps the uncovered sub-axes") {
  Mesh mesh = parseMeshOrDie(kMesh);
  AxisRefVector a = {AxisRef("x"), AxisRef("y")};
  AxisRefVector b = {AxisRef("x", 2, 2)};
  AxisRefVector diff = axisSetDifference(a, b, mesh);
  REQUIRE(diff.size() == 2);
  CHECK(diff[0] == AxisRef("x", 1, 2));
  CHECK(diff[1] == AxisRef("y"));
  CHECK(axisSetDifference(a, a, mesh).empty());
}

}  // namespace
}  // namespace shardkit
