// The special cases of explicit reshards over plain values: reshapes with
// overflow axes, and the non-full version's dot.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/factor_propagation/explicit_reshards.h"
#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::parseMeshOrDie;
using testing::parseRuleOrDie;
using testing::parseShardingOrDie;
using testing::projectOrDie;
using testing::resolvedList;

TEST_CASE("reshape overflow: axes handed out again over both sides") {
  // 24576 = 4 x 6144: "x"=6 does not fit factor i=4, so the operand's
  // projection overflows; redistributed, i gets "x":(1)2, "y":(1)2 and j
  // the rest.
  Mesh mesh = parseMeshOrDie(R"(<["x"=6, "y"=4096]>)");
  OpShardingRule rule = parseRuleOrDie(
      "#sdy.op_sharding_rule<([ij, k, l])->([i, jk, l]) "
      "{i=4, j=6144, k=8192, l=16384}>");
  ShardingProjection projection =
      projectOrDie(mesh, rule, {R"(<@m, [{"x", "y"}, {}, {}]>)"},
                   {R"(<@m, [{}, {"x", "y"}, {}]>)"});
  REQUIRE(projection.tensorsWithOverflowAxes()[0]);
  AxesPerFactor axes = reshapeCommonAxes(projection, rule, mesh);
  CHECK(axes[0] == resolvedList(R"({"x":(1)2, "y":(1)2})", mesh));
  CHECK(axes[1] == resolvedList(R"({"x":(2)3, "y":(2)2048})", mesh));
  CHECK(axes[2].empty());
  CHECK(axes[3].empty());
}

TEST_CASE("reshape overflow: what fits no factor goes to the last one") {
  // "x"=4 fits neither i=3 nor (but in part) j=2; the rest ends up on the
  // last factor l, where the result (a scalar) does not see it.
  Mesh mesh = parseMeshOrDie(R"(<["x"=4, "y"=2]>)");
  OpShardingRule rule = parseRuleOrDie(
      "#sdy.op_sharding_rule<([ij, k, l])->([]) {i=3, j=2, k=1, l=1}>");
  ShardingProjection projection =
      projectOrDie(mesh, rule, {R"(<@m, [{"x"}, {}, {}]>)"}, {R"(<@m, []>)"});
  AxesPerFactor axes = reshapeCommonAxes(projection, rule, mesh);
  CHECK(axes[0].empty());
  CHECK(axes[1].empty());
  CHECK(axes[2].empty());
  CHECK(axes[3] == resolvedList(R"({"x":(2)2})", mesh));
}

const char* kDotRule =
    "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=4, j=8, k=32} "
    "reduction={k}>";

TEST_CASE("non-full dot: the result takes the operand's axes") {
  Mesh mesh = parseMeshOrDie(R"(<["x"=2, "y"=2]>)");
  OpShardingRule rule = parseRuleOrDie(kDotRule);
  ShardingProjection projection = projectOrDie(
      mesh, rule, {R"(<@m, [{}, {"x"}]>)", R"(<@m, [{"x"}, {"y"}]>)"},
      {R"(<@m, [{}, {"x"}]>)"});
  REQUIRE(reshardDotResultLikeOperands(projection, rule, {128, 256, 32}));
  CHECK(projection.result(0).find(1)->axes == resolvedList(R"({"y"})", mesh));
}

TEST_CASE("non-full dot: no reshard when a condition fails") {
  Mesh mesh = parseMeshOrDie(R"(<["x"=2, "y"=2]>)");
  OpShardingRule rule = parseRuleOrDie(kDotRule);
  struct Case {
    const char* why;
    std::vector<std::string> operands;
    std::string result;
    std::vector<int64_t> sizes;
  };
  std::vector<Case> cases = {
      {"the operands disagree on k",
       {R"(<@m, [{}, {"x"}]>)", R"(<@m, [{}, {"y"}]>)"},
       R"(<@m, [{}, {"x"}]>)",
       {128, 256, 32}},
      {"the result is larger than the operand",
       {R"(<@m, [{}, {"x"}]>)", R"(<@m, [{"x"}, {"y"}]>)"},
       R"(<@m, [{}, {"x"}]>)",
       {128, 16, 32}},
      {"the result's axes are not the contracting axes",
       {R"(<@m, [{}, {"x"}]>)", R"(<@m, [{"x"}, {"y"}]>)"},
       R"(<@m, [{}, {}]>)",
       {128, 256, 32}},
      {"the operand's axes are empty",
       {R"(<@m, [{}, {"x"}]>)", R"(<@m, [{"x"}, {}]>)"},
       R"(<@m, [{}, {"x"}]>)",
       {128, 256, 32}},
  };
  for (const Case& c : cases) {
    INFO(c.why);
    ShardingProjection projection =
        projectOrDie(mesh, rule, c.operands, {c.result});
    ShardingProjection before = projection;
    CHECK_FALSE(reshardDotResultLikeOperands(projection, rule, c.sizes));
    CHECK(projection == before);
  }
}

}  // namespace
}  // namespace shardkit
