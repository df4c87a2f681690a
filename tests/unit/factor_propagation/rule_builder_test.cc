#include "shardkit/factor_propagation/rule_builder.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::text;
using testing::verifiedText;

TEST_CASE("builder: matmul built factor by factor") {
  OpShardingRuleBuilder builder({{8, 32}, {32, 16}}, {{8, 16}});
  builder.addFactor({0, kNullDim}, {0}, 8)
      .addFactor({kNullDim, 1}, {1}, 16)
      .addFactor({1, 0}, {kNullDim}, 32, FactorType::kReduction);
  CHECK(builder.numFactors() == 3);
  CHECK(verifiedText(builder.build(), {{8, 32}, {32, 16}}, {{8, 16}}) ==
        "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>");
}

TEST_CASE("builder: factors added to one dim form a compound dim") {
  OpShardingRuleBuilder builder({{2, 4}}, {{8}});
  builder.addFactor({0}, {0}, 2).addFactor({1}, {0}, 4);
  CHECK(text(builder.build()) == "<([i, j])->([ij]) {i=2, j=4}>");
}

TEST_CASE("builder: dims left without a factor get size-1 factors") {
  OpShardingRuleBuilder builder({{4, 7}, {3}}, {{4, 5}});
  builder.addFactor({0, kNullDim}, {0}, 4);
  absl::StatusOr<OpShardingRule> rule = builder.build();
  REQUIRE(rule.ok());
  // Operands first, dim by dim, then results.
  CHECK(toString(*rule) == "<([i, j], [k])->([i, l]) {i=4, j=1, k=1, l=1}>");
  // build() leaves the builder unchanged: building twice gives the same rule.
  CHECK(builder.numFactors() == 1);
  CHECK(text(builder.build()) == toString(*rule));
}

TEST_CASE("builder: a size-1 factor maps only to size-1 dims") {
  SECTION("mixed dims: only the size-1 dim gets it") {
    OpShardingRuleBuilder builder({{4}}, {{1}});
    builder.addFactor({0}, {0}, 1);
    CHECK(text(builder.build()) == "<([j])->([i]) {i=1, j=1}>");
  }
  SECTION("no size-1 dim: the factor is not created") {
    OpShardingRuleBuilder builder({{4}}, {{4}});
    builder.addFactor({0}, {0}, 4)
        .addFactor({0}, {0}, 1, FactorType::kReduction);
    CHECK(builder.numFactors() == 1);
    CHECK(text(builder.build()) == "<([i])->([i]) {i=4}>");
  }
  SECTION("a larger factor may map to a size-1 dim") {
    OpShardingRuleBuilder builder({{4}}, {{1}});
    builder.addFactor(0, 4, FactorType::kPermutation);
    CHECK(text(builder.build()) == "<([i])->([i]) {i=4} permutation={i}>");
  }
}

TEST_CASE("builder: addFactor(dim) skips scalars") {
  OpShardingRuleBuilder builder({{}, {4, 8}, {}}, {{4, 8}});
  builder.addPointwise(Shape{4, 8});
  CHECK(verifiedText(builder.build(), {{}, {4, 8}, {}}, {{4, 8}}) ==
        "<([], [i, j], [])->([i, j]) {i=4, j=8}>");
}

TEST_CASE("builder: factor kinds and blocked factors") {
  OpShardingRuleBuilder builder({{2, 3, 5, 7}}, {{2, 3, 5, 7}});
  builder.addFactor(0, 2, FactorType::kNeedReplication, /*blocked=*/true)
      .addFactor(1, 3, FactorType::kPermutation)
      .addFactor(2, 5)
      .addFactor(3, 7, FactorType::kNeedReplication);
  CHECK(text(builder.build()) ==
        "<([i, j, k, l])->([i, j, k, l]) {i=2, j=3, k=5, l=7} "
        "need_replication={i, l} permutation={j} blocked_propagation={i}>");
}

TEST_CASE("builder: addPointwiseIf and a type function") {
  OpShardingRuleBuilder builder({{4, 6, 8}}, {{4, 6, 8}});
  builder.addPointwiseIf(
      Shape{4, 6, 8}, [](int64_t d) { return d != 1; },
      [](int64_t d) {
        return d == 2 ? FactorType::kReduction : FactorType::kPassThrough;
      });
  CHECK(text(builder.build()) ==
        "<([i, k, j])->([i, l, j]) {i=4, j=8, k=1, l=1} reduction={j}>");
}

TEST_CASE("builder: addPointwiseIfDimSizesMatch calls back on mismatches") {
  OpShardingRuleBuilder builder({{4, 6}}, {{4, 3}});
  std::vector<int64_t> mismatched;
  builder.addPointwiseIfDimSizesMatch(
      Shape{4, 6}, Shape{4, 3}, [&](int64_t dim, OpShardingRuleBuilder& b) {
        mismatched.push_back(dim);
        b.addFactor({dim}, {kNullDim}, 6);
      });
  CHECK(mismatched == std::vector<int64_t>{1});
  CHECK(text(builder.build()) == "<([i, j])->([i, k]) {i=4, j=6, k=1}>");
}

TEST_CASE("builder: addPointwiseWithDiffTypeForMismatch") {
  OpShardingRuleBuilder builder({{8, 6, 2}}, {{8, 3, 1}});
  builder.addPointwiseWithDiffTypeForMismatch(Shape{8, 6, 2}, Shape{8, 3, 1},
                                              FactorType::kPermutation,
                                              /*mismatch_blocked=*/true);
  CHECK(text(builder.build()) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=6, k=2} permutation={j, k} "
        "blocked_propagation={j, k}>");
}

TEST_CASE("builder: buildPointwise uses the result's dims") {
  CHECK(text(OpShardingRuleBuilder::buildPointwise({{2, 1, 4}, {2, 1, 4}},
                                                   {{2, 1, 4}})) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=1, k=4}>");
  CHECK(text(OpShardingRuleBuilder::buildPointwise({{}, {}}, {{}})) ==
        "<([], [])->([])>");
  CHECK(text(OpShardingRuleBuilder::buildPointwise({{2, 3}}, {{2}})) ==
        "error: pointwise rule: operand 0 has rank 2, expected 1 or 0");
  CHECK(!OpShardingRuleBuilder::buildPointwise({{2}}, {}).ok());
}

TEST_CASE("builder: low-level factors, mappings and the custom flag") {
  OpShardingRuleBuilder builder({{4, 2}}, {{2, 4}});
  int64_t i = builder.newFactor(4);
  int64_t j = builder.newFactor(2, FactorType::kNeedReplication);
  builder.mapOperandDim(0, 0, i)
      .mapOperandDim(0, 1, j)
      .mapResultDim(0, 0, j)
      .mapResultDim(0, 1, i)
      .setCustom();
  CHECK(text(builder.build()) ==
        "<([i, j])->([j, i]) {i=4, j=2} need_replication={j}, custom>");
}

TEST_CASE("builder: misuse is reported by build(), not a crash") {
  SECTION("dim out of range") {
    OpShardingRuleBuilder builder({{4}}, {{4}});
    builder.addFactor({1}, {0}, 4);
    CHECK(text(builder.build()) ==
          "error: rule builder: dimension 1 of operand 0 is out of range for "
          "rank 1");
  }
  SECTION("wrong number of dims") {
    OpShardingRuleBuilder builder({{4}, {4}}, {{4}});
    builder.addFactor({0}, {0}, 4);
    CHECK(!builder.build().ok());
  }
  SECTION("addFactor(dim) beyond a tensor's rank") {
    OpShardingRuleBuilder builder({{4, 4}}, {{4}});
    builder.addFactor(1, 4);
    CHECK(!builder.status().ok());
  }
  SECTION("mapping to an unknown factor, operand or result") {
    OpShardingRuleBuilder builder({{4}}, {{4}});
    builder.mapOperandDim(0, 0, 3);
    CHECK(text(builder.build()) == "error: rule builder: no factor 3");
    OpShardingRuleBuilder other({{4}}, {{4}});
    other.newFactor(4);
    other.mapResultDim(1, 0, 0);
    CHECK(text(other.build()) == "error: rule builder: no result 1");
  }
  SECTION("the first error wins and later calls are ignored") {
    OpShardingRuleBuilder builder({{4}}, {{4}});
    builder.addFactor({5}, {0}, 4).addFactor({0}, {0}, 4);
    CHECK(builder.numFactors() == 0);
    CHECK(text(builder.build()).find("dimension 5") != std::string::npos);
  }
  SECTION("negative factor size") {
    OpShardingRuleBuilder builder({{4}}, {{4}});
    builder.addFactor(0, -3);
    CHECK(!builder.build().ok());
  }
}

TEST_CASE("parseRuleNotation accepts bare, stripped and full forms") {
  const std::string expected =
      "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>";
  for (const char* form :
       {"([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}",
        "  <([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>",
        "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} "
        "reduction={k}>"}) {
    absl::StatusOr<OpShardingRule> rule = parseRuleNotation(form);
    REQUIRE(rule.ok());
    CHECK(toString(*rule) == expected);
  }
  absl::StatusOr<OpShardingRule> custom =
      parseRuleNotation("([i, j])->([j, i]) {i=4, j=2}, custom");
  REQUIRE(custom.ok());
  CHECK(custom->is_custom_rule);
  CHECK(!parseRuleNotation("([i, j]->([i]) {i=4}").ok());
  CHECK(!parseRuleNotation("").ok());
}

TEST_CASE("a parsed rule equals the same rule built by the builder") {
  OpShardingRuleBuilder builder({{2, 4}}, {{8}, {2}});
  builder.addFactor({0}, {0, 0}, 2)
      .addFactor({1}, {0, kNullDim}, 4, FactorType::kNeedReplication, true);
  absl::StatusOr<OpShardingRule> built = builder.build();
  absl::StatusOr<OpShardingRule> parsed = parseRuleNotation(
      "([i, j])->([ij], [i]) {i=2, j=4} need_replication={j} "
      "blocked_propagation={j}");
  REQUIRE(built.ok());
  REQUIRE(parsed.ok());
  CHECK(*built == *parsed);
}

}  // namespace
}  // namespace shardkit
