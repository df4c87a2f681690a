#include <catch2/catch.hpp>

#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::parseMeshOrDie;
using testing::parseRuleOrDie;
using testing::parseShardingOrDie;
using testing::resolvedList;

const MeshOrRef kMeshRef = MeshOrRef::ref("mesh");

// Builds the projection of one operand and one result (text, "" = missing).
ShardingProjection project(const Mesh& mesh, const OpShardingRule& rule,
                           const std::string& operand,
                           const std::string& result,
                           const ProjectionOptions& options = {}) {
  auto operands = testing::parseShardings({operand});
  auto results = testing::parseShardings({result});
  auto operand_ptrs = testing::pointers(operands);
  auto result_ptrs = testing::pointers(results);
  absl::StatusOr<ShardingProjection> projection =
      ShardingProjection::build(operand_ptrs, result_ptrs, rule, mesh, options);
  INFO(projection.status().ToString());
  REQUIRE(projection.ok());
  return *std::move(projection);
}

std::string back(const ShardingProjection& projection, int64_t tensor,
                 const OpShardingRule& rule, const Mesh& mesh) {
  return toString(projection.tensor(tensor).toTensorSharding(
      rule.tensorMapping(tensor), rule.factor_sizes, mesh, kMeshRef));
}

TEST_CASE("projection splits an axis at a factor boundary") {
  Mesh mesh = parseMeshOrDie(R"(<["x"=4, "y"=2]>)");
  OpShardingRule rule = parseRuleOrDie("<([ij])->([i, j]) {i=2, j=4}>");
  ShardingProjection projection =
      project(mesh, rule, R"(<@mesh, [{"x", "y"}]>)", R"(<@mesh, [{?}, {?}]>)");
  const TensorFactorShardings& operand = projection.operand(0);
  CHECK(AxisSpan(operand.find(0)->axes) ==
        AxisSpan(resolvedList(R"({"x":(1)2})", mesh)));
  CHECK(AxisSpan(operand.find(1)->axes) ==
        AxisSpan(resolvedList(R"({"x":(2)2, "y"})", mesh)));
  CHECK_FALSE(operand.find(0)->is_minor_most);
  CHECK(operand.find(1)->is_minor_most);
  CHECK(operand.find(0)->is_closed);
  CHECK(projection.result(0).find(0)->axes.empty());
  CHECK_FALSE(projection.result(0).find(0)->is_closed);

  // Giving the result the operand's factor shardings yields the sub-axes;
  // the operand merges its pieces back into whole axes.
  for (int64_t factor : {0, 1}) {
    projection.expandSharding(factor, operand.find(factor)->axes);
  }
  CHECK(back(projection, 1, rule, mesh) ==
        R"(<@mesh, [{"x":(1)2, ?}, {"x":(2)2, "y", ?}]>)");
  CHECK(back(projection, 0, rule, mesh) == R"(<@mesh, [{"x", "y"}]>)");
}

TEST_CASE("projection round trips dimension shardings") {
  struct Case {
    const char* mesh;
    const char* rule;
    const char* sharding;
  };
  const Case cases[] = {
      {R"(<["a"=2, "b"=2]>)", "<([i, j])->([i, j]) {i=8, j=8}>",
       R"(<@mesh, [{"a", ?}, {}], replicated={"b"}>)"},
      {R"(<["x"=4]>)", "<([ij])->([i, j]) {i=2, j=4}>", R"(<@mesh, [{"x"}]>)"},
      {R"(<["a"=4, "b"=4]>)", "<([ij])->([i, j]) {i=2, j=4}>",
       R"(<@mesh, [{"a", "b", ?}]>)"},
      // Overflow axes come back as they were.
      {R"(<["a"=3]>)", "<([ij])->([i, j]) {i=2, j=4}>", R"(<@mesh, [{"a"}]>)"},
      {R"(<["a"=6, "b"=2]>)", "<([i, jk])->([i, j, k]) {i=2, j=8, k=4}>",
       R"(<@mesh, [{?}, {"a"}]>)"},
      {R"(<["a"=2, "b"=3]>)", "<([i, jk])->([i, j, k]) {i=3, j=8, k=4}>",
       R"(<@mesh, [{?}, {"a", "b", ?}]>)"},
      // Size-1 axes and sub-axes.
      {R"(<["a"=1, "b"=2, "c"=1]>)", "<([ik])->([i, j, k]) {i=2, j=1, k=4}>",
       R"(<@mesh, [{"a", "b", "c"}]>)"},
      {R"(<["a"=16]>)", "<([ij, k])->([i, j, k]) {i=2, j=4, k=4}>",
       R"(<@mesh, [{"a":(1)8, ?}, {"a":(8)2, ?}]>)"},
      {R"(<["a"=4, "b"=2]>)", "<([i, j])->([i, j]) {i=8, j=8}>",
       R"(<@mesh, [{"a":(2)2}, {"b"}], unreduced=max{"a":(1)2}>)"},
  };
  for (const Case& c : cases) {
    INFO(c.sharding << " with " << c.rule);
    Mesh mesh = parseMeshOrDie(c.mesh);
    OpShardingRule rule = parseRuleOrDie(c.rule);
    ShardingProjection projection = project(mesh, rule, c.sharding, "");
    CHECK(back(projection, 0, rule, mesh) == c.sharding);
  }
}

TEST_CASE("overflow axes and the factors after them") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=3]>)");
  OpShardingRule rule =
      parseRuleOrDie("<([ijk])->([i, j, k]) {i=2, j=2, k=2}>");
  ShardingProjection projection =
      project(mesh, rule, R"(<@mesh, [{"a", ?}]>)", "");
  const TensorFactorShardings& operand = projection.operand(0);
  CHECK(operand.find(0)->axes.empty());
  CHECK(AxisSpan(operand.find(0)->overflow_axes) ==
        AxisSpan(resolvedList(R"({"a"})", mesh)));
  CHECK_FALSE(operand.find(0)->is_closed);
  REQUIRE(operand.find(1) != nullptr);
  CHECK(operand.find(1)->is_closed);
  CHECK(operand.find(2) == nullptr);
  CHECK(projection.tensorsWithOverflowAxes() == TensorFlags{true, false});
  CHECK(operand.shardingSize() == 3);
}

TEST_CASE("a factor that isn't fully sharded ends its dimension") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=2, "b"=2]>)");
  OpShardingRule rule = parseRuleOrDie("<([i, j])->([ij]) {i=4, j=4}>");
  ShardingProjection projection =
      project(mesh, rule, R"(<@mesh, [{"a"}, {"b"}]>)", "");
  projection.expandSharding(0, resolvedList(R"({"a"})", mesh));
  projection.expandSharding(1, resolvedList(R"({"b"})", mesh));
  CHECK(back(projection, 1, rule, mesh) == R"(<@mesh, [{"a", ?}]>)");
}

TEST_CASE("missing shardings project open, or closed on request") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=2]>)");
  OpShardingRule rule = parseRuleOrDie("<([i, j])->([i, j]) {i=8, j=8}>");
  CHECK_FALSE(project(mesh, rule, "", "").operand(0).find(0)->is_closed);
  ProjectionOptions options;
  options.closed_if_missing = true;
  ShardingProjection closed = project(mesh, rule, "", "", options);
  CHECK(closed.operand(0).find(1)->is_closed);
  CHECK(back(closed, 1, rule, mesh) == "<@mesh, [{}, {}]>");
}

TEST_CASE("a priority round hides dimensions of later rounds") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=2, "b"=2, "c"=2]>)");
  OpShardingRule rule = parseRuleOrDie("<([i, j])->([i, j]) {i=8, j=8}>");
  const char* sharding = R"(<@mesh, [{"c", ?}p2, {"a"}p1], replicated={"b"}>)";
  ProjectionOptions options;
  options.priority_round = 1;
  ShardingProjection projection = project(mesh, rule, sharding, "", options);
  const TensorFactorShardings& operand = projection.operand(0);
  CHECK(operand.find(0)->axes.empty());
  CHECK(operand.find(0)->is_closed);
  CHECK(AxisSpan(operand.find(1)->axes) ==
        AxisSpan(resolvedList(R"({"a"})", mesh)));
  // In mesh order.
  CHECK(AxisSpan(operand.replicated_axes) ==
        AxisSpan(resolvedList(R"({"b", "c"})", mesh)));
  options.priority_round = 2;
  CHECK(project(mesh, rule, sharding, "", options).operand(0).find(0)->axes ==
        resolvedList(R"({"c"})", mesh));
}

TEST_CASE("expanding and updating factor shardings") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=4, "b"=2]>)");
  OpShardingRule rule = parseRuleOrDie("<([i], [j])->([i]) {i=8, j=8}>");
  auto operands = testing::parseShardings(
      {R"(<@mesh, [{"a":(1)2, ?}]>)", R"(<@mesh, [{"b"}]>)"});
  auto ptrs = testing::pointers(operands);
  const TensorSharding* results[] = {nullptr};
  absl::StatusOr<ShardingProjection> built =
      ShardingProjection::build(ptrs, results, rule, mesh);
  REQUIRE(built.ok());
  ShardingProjection projection = *built;
  // Only a strict extension expands; a tensor without the factor never.
  CHECK(projection.expandSharding(0, resolvedList(R"({"a"})", mesh)) ==
        TensorFlags{true, false, true});
  CHECK(projection.expandSharding(0, resolvedList(R"({"a"})", mesh)) ==
        TensorFlags{false, false, false});
  CHECK(projection.expandSharding(0, resolvedList(R"({"b"})", mesh)) ==
        TensorFlags{false, false, false});
  CHECK(projection.updateSharding(0, resolvedList(R"({"b"})", mesh)) ==
        TensorFlags{true, false, true});
  CHECK(projection.operand(0).find(0)->axes == resolvedList(R"({"b"})", mesh));
}

TEST_CASE("greatest common prefix per factor") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=4, "b"=2, "c"=2]>)");
  OpShardingRule rule =
      parseRuleOrDie("<([i, j], [i, j])->([i, j]) {i=8, j=8}>");
  auto operands = testing::parseShardings(
      {R"(<@mesh, [{"a", "b"}, {"c"}]>)", R"(<@mesh, [{"a":(1)2}, {"c"}]>)"});
  auto ptrs = testing::pointers(operands);
  TensorSharding result = parseShardingOrDie(R"(<@mesh, [{"a", ?}, {}]>)");
  const TensorSharding* results[] = {&result};
  absl::StatusOr<ShardingProjection> projection =
      ShardingProjection::build(ptrs, results, rule, mesh);
  REQUIRE(projection.ok());
  std::vector<AxisList> prefixes = projection->greatestCommonPrefixAxes();
  REQUIRE(prefixes.size() == 2);
  CHECK(prefixes[0] == resolvedList(R"({"a":(1)2})", mesh));
  CHECK(prefixes[1].empty());  // The result has nothing there.

  ShardingProjection uniform =
      ShardingProjection::fromAxesPerFactor(prefixes, rule);
  CHECK(uniform.numTensors() == 3);
  CHECK(uniform.result(0).find(0)->axes == prefixes[0]);
  CHECK(uniform.result(0).find(0)->is_closed);
}

TEST_CASE("bad input is an error, not a crash") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=2]>)");
  OpShardingRule rule = parseRuleOrDie("<([i, j])->([i, j]) {i=8, j=8}>");
  auto build = [&](const std::string& operand) {
    TensorSharding sharding = parseShardingOrDie(operand);
    const TensorSharding* operands[] = {&sharding};
    const TensorSharding* results[] = {nullptr};
    return ShardingProjection::build(operands, results, rule, mesh).status();
  };
  absl::Status rank = build(R"(<@mesh, [{"a"}]>)");
  CHECK(rank.message().find("rank 1") != absl::string_view::npos);
  absl::Status axis = build(R"(<@mesh, [{"q"}, {}]>)");
  CHECK(axis.message().find("\"q\"") != absl::string_view::npos);
  const TensorSharding* none[] = {nullptr};
  CHECK_FALSE(ShardingProjection::build({}, none, rule, mesh).ok());
  OpShardingRule bad = parseRuleOrDie("<([i, j])->([i, j]) {i=8, j=8}>");
  bad.operand_mappings[0].dim_mappings[0].factor_indices = {5};
  CHECK_FALSE(ShardingProjection::build(none, none, bad, mesh).ok());
}

}  // namespace
}  // namespace shardkit
