// The basic strategy on hand-made factor tables.
#include "shardkit/factor_propagation/basic_factor_propagation.h"

#include <catch2/catch.hpp>

#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::parseMeshOrDie;
using testing::parseRuleOrDie;
using testing::resolvedList;

struct Table {
  Mesh mesh;
  OpShardingRule rule;
  ShardingProjection projection;

  Table(const char* mesh_text, const char* rule_text,
        const std::vector<std::string>& operands,
        const std::vector<std::string>& results)
      : mesh(parseMeshOrDie(mesh_text)), rule(parseRuleOrDie(rule_text)) {
    auto operand_shardings = testing::parseShardings(operands);
    auto result_shardings = testing::parseShardings(results);
    auto operand_ptrs = testing::pointers(operand_shardings);
    auto result_ptrs = testing::pointers(result_shardings);
    absl::StatusOr<ShardingProjection> built =
        ShardingProjection::build(operand_ptrs, result_ptrs, rule, mesh);
    INFO(built.status().ToString());
    REQUIRE(built.ok());
    projection = *std::move(built);
  }

  std::string compatible(int64_t factor, PropagationDirection direction =
                                             PropagationDirection::kBoth) {
    return toString(compatibleMajorAxes(projection, factor, direction), mesh);
  }
  std::string compatibleSharding(
      int64_t factor, bool conservative = false,
      PropagationDirection direction = PropagationDirection::kBoth) {
    return toString(
        compatibleMajorShardingAxes(projection, factor, direction,
                                    rule.factor_sizes[factor], conservative),
        mesh);
  }
};

const char* kMesh = R"(<["a"=4, "b"=2, "c"=2, "d"=2]>)";
const char* kFourWay = "<([i], [i], [i], [i])->([i]) {i=64}>";

TEST_CASE("compatible major axes ignoring conflicts") {
  CHECK(Table(kMesh, kFourWay,
              {R"(<@mesh, [{"a", "b"}]>)", R"(<@mesh, [{"a", "c"}]>)", "", ""},
              {""})
            .compatible(0) == R"(["a"])");
  CHECK(Table(kMesh, kFourWay,
              {R"(<@mesh, [{"a"}]>)", "", R"(<@mesh, [{"a", "b", "c"}]>)",
               R"(<@mesh, [{"a", "b", "d"}]>)"},
              {""})
            .compatible(0) == R"(["a", "b"])");
  CHECK(Table(kMesh, kFourWay,
              {R"(<@mesh, [{"a":(1)2}]>)", R"(<@mesh, [{"a"}]>)", "", ""}, {""})
            .compatible(0) == R"(["a"])");
  CHECK(Table(kMesh, kFourWay,
              {R"(<@mesh, [{"a":(1)2, "b"}]>)", R"(<@mesh, [{"a"}]>)", "", ""},
              {""})
            .compatible(0) == R"(["a":(1)2])");
  CHECK(Table(kMesh, kFourWay,
              {R"(<@mesh, [{"a":(1)2}]>)", R"(<@mesh, [{"a":(2)2}]>)", "", ""},
              {""})
            .compatible(0) == R"([])");
}

TEST_CASE("one direction lets one side grow the axes, the other cut them") {
  Table table(kMesh, "<([i])->([i]) {i=64}>", {R"(<@mesh, [{"a", ?}]>)"},
              {R"(<@mesh, [{"a", "b", ?}]>)"});
  CHECK(table.compatible(0, PropagationDirection::kBoth) == R"(["a", "b"])");
  CHECK(table.compatible(0, PropagationDirection::kForward) == R"(["a"])");
  CHECK(table.compatible(0, PropagationDirection::kBackward) ==
        R"(["a", "b"])");
  CHECK(table.compatible(0, PropagationDirection::kNone) == R"([])");
  Table conflict(kMesh, "<([i])->([i]) {i=64}>", {R"(<@mesh, [{"a", ?}]>)"},
                 {R"(<@mesh, [{"b", ?}]>)"});
  CHECK(conflict.compatible(0, PropagationDirection::kForward) == R"([])");
}

TEST_CASE("conflicts within the factor") {
  const char* two = "<([i], [i])->([i]) {i=64}>";
  SECTION("replicated and unreduced axes") {
    CHECK(Table(kMesh, two,
                {R"(<@mesh, [{"a", "b"}]>)",
                 R"(<@mesh, [{?}], replicated={"b"}>)"},
                {""})
              .compatibleSharding(0) == R"(["a"])");
    CHECK(Table(kMesh, two,
                {R"(<@mesh, [{"a", "b"}]>)",
                 R"(<@mesh, [{?}], unreduced={"a"}>)"},
                {""})
              .compatibleSharding(0) == R"([])");
    // Only a part of the axis is replicated: the part before it remains.
    CHECK(Table(kMesh, two,
                {R"(<@mesh, [{"a"}]>)",
                 R"(<@mesh, [{?}], replicated={"a":(2)2}>)"},
                {""})
              .compatibleSharding(0) == R"(["a":(1)2])");
  }
  SECTION("a closed factor keeps what it has") {
    CHECK(Table(kMesh, two, {R"(<@mesh, [{"a", "b"}]>)", R"(<@mesh, [{"a"}]>)"},
                {""})
              .compatibleSharding(0) == R"(["a"])");
    CHECK(Table(kMesh, two, {R"(<@mesh, [{"a"}]>)", R"(<@mesh, [{"a":(1)2}]>)"},
                {""})
              .compatibleSharding(0) == R"(["a":(1)2])");
    CHECK(Table(kMesh, two, {R"(<@mesh, [{"a"}]>)", R"(<@mesh, [{}]>)"}, {""})
              .compatibleSharding(0) == R"([])");
  }
  SECTION("a non-minor-most factor takes only the dividing part") {
    Table table(kMesh, "<([i, j])->([ij]) {i=2, j=8}>",
                {R"(<@mesh, [{"a"}, {}]>)"}, {""});
    CHECK(table.compatible(0) == R"(["a"])");
    CHECK(table.compatibleSharding(0) == R"(["a":(1)2])");
    CHECK(table.compatibleSharding(0, /*conservative=*/true) == R"([])");
  }
  SECTION("a factor with overflow axes takes nothing new") {
    Table table(R"(<["a"=3, "b"=2]>)", "<([ij], [ij])->([i, j]) {i=2, j=4}>",
                {R"(<@mesh, [{"a"}]>)", R"(<@mesh, [{"b", ?}]>)"}, {""});
    CHECK(table.compatible(0) == R"(["b"])");
    CHECK(table.compatibleSharding(0) == R"([])");
  }
}

TEST_CASE("conflicts across factors, even where the factor isn't mapped") {
  Table table(kMesh, "<([i, j], [i])->([j]) {i=8, j=8}>",
              {R"(<@mesh, [{?}, {?}]>)", R"(<@mesh, [{"b", "a"}]>)"},
              {R"(<@mesh, [{"a":(2)2}]>)"});
  // "a":(2)2 shards j in the result, which doesn't map i at all.
  CHECK(table.compatibleSharding(0) == R"(["b", "a":(1)2])");
}

TEST_CASE("basic propagation expands every tensor of every factor") {
  Table table(kMesh, "<([i, j], [i, j])->([i, j]) {i=8, j=8}>",
              {R"(<@mesh, [{"a", ?}, {"b", ?}]>)", R"(<@mesh, [{?}, {?}]>)"},
              {R"(<@mesh, [{"a", "c", ?}, {?}]>)"});
  std::vector<PropagationDirection> both(2, PropagationDirection::kBoth);
  TensorFlags updated = basicFactorPropagation().propagate(
      table.projection, both, table.rule.factor_sizes, table.mesh, {});
  CHECK(updated == TensorFlags{true, true, true});
  for (int64_t t = 0; t < 3; ++t) {
    CHECK(toString(table.projection.tensor(t).find(0)->axes, table.mesh) ==
          R"(["a", "c"])");
    CHECK(toString(table.projection.tensor(t).find(1)->axes, table.mesh) ==
          R"(["b"])");
  }
  // A second pass has nothing left to do.
  CHECK(basicFactorPropagation().propagate(
            table.projection, both, table.rule.factor_sizes, table.mesh, {}) ==
        TensorFlags{false, false, false});
}

}  // namespace
}  // namespace shardkit
