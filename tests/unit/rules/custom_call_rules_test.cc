#include "shardkit/rules/custom_call_rules.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::verifiedText;

std::string customCall(std::string_view target,
                       const std::vector<Shape>& operands,
                       const std::vector<Shape>& results,
                       const CustomCallContext& context = {}) {
  return verifiedText(customCallRule(target, operands, results, context),
                      operands, results);
}

TEST_CASE("custom_call: pointwise targets") {
  CHECK(customCall("CompactWyHelper", {{128, 128}}, {{128, 128}}) ==
        "<([i, j])->([i, j]) {i=128, j=128}>");
  for (const char* target :
       {"InspectSharding", "MoveToDevice", "MoveToHost", "LayoutConstraint",
        "mhlo.erf", "X64SplitHigh", "X64SplitLow",
        "xla.megascale.provide_metadata", "annotate_device_placement",
        "Cholesky", "InvertDiagBlocksLowerTriangular",
        "InvertDiagBlocksUpperTriangular"}) {
    INFO(target);
    CHECK(customCall(target, {{8, 4}}, {{8, 4}}) ==
          "<([i, j])->([i, j]) {i=8, j=4}>");
    CHECK(isKnownCustomCallTarget(target));
  }
}

TEST_CASE("custom_call: pointwise targets keep the shape they are given") {
  CHECK(customCall("InspectSharding", {{4, 8}}, {{4, 8}}) ==
        "<([i, j])->([i, j]) {i=4, j=8}>");
  for (const char* target :
       {"X64SplitHigh", "X64SplitLow", "xla.megascale.provide_metadata"}) {
    CHECK(customCall(target, {{8, 2}}, {{8, 2}}) ==
          "<([i, j])->([i, j]) {i=8, j=2}>");
  }
  CHECK(customCall("MoveToHost", {{8, 2}}, {{8}}).rfind("error:", 0) == 0);
}

TEST_CASE("custom_call: X64Combine is blocked when it seeds an rng") {
  CHECK(customCall("X64Combine", {{8, 2}, {8, 2}}, {{8, 2}}) ==
        "<([i, j], [i, j])->([i, j]) {i=8, j=2}>");
  CHECK(customCall("X64Combine", {{2}, {2}}, {{2}}, {true}) ==
        "<([i], [i])->([i]) {i=2} need_replication={i} "
        "blocked_propagation={i}>");
  CHECK(customCall("X64Combine", {{2}, {3}}, {{2}})
            .rfind("error: X64Combine", 0) == 0);
}

TEST_CASE("custom_call: linear algebra targets") {
  CHECK(customCall("Eigh", {{8, 4, 4}}, {{8, 4, 4}, {8, 4}}) ==
        "<([i, j, k])->([i, j, k], [i, k]) {i=8, j=4, k=4}>");
  for (const char* target : {"Qr", "QrDecompositionBlock"}) {
    CHECK(customCall(target, {{8, 5, 3}}, {{8, 5, 3}, {8, 3}}) ==
          "<([i, j, k])->([i, j, k], [i, l]) {i=8, j=5, k=3, l=3} "
          "need_replication={j, k, l}>");
  }
  CHECK(customCall("ProductOfElementaryHouseholderReflectors",
                   {{8, 12, 16}, {8, 5}}, {{8, 12, 16}}) ==
        "<([i, j, k], [i, l])->([i, j, k]) {i=8, j=12, k=16, l=5} "
        "need_replication={j, k, l}>");
  CHECK(customCall("Eigh", {{8}}, {{8}, {}}).rfind("error: Eigh", 0) == 0);
  CHECK(customCall("Qr", {{8, 5, 3}}, {{8, 5, 3}}).rfind("error: Qr", 0) == 0);
}

TEST_CASE("custom_call: top-k targets block the top-k dim") {
  CHECK(customCall("mhlo.topk", {{16}}, {{1}, {1}}) ==
        "<([i])->([i], [i]) {i=16} need_replication={i} "
        "blocked_propagation={i}>");
  CHECK(customCall("mhlo.topk", {{16, 8}}, {{16, 1}, {16, 1}}) ==
        "<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} "
        "blocked_propagation={j}>");
  CHECK(customCall("mhlo.topk", {{16, 8}}, {{16, 2}, {16, 2}}) ==
        "<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} "
        "blocked_propagation={j}>");
  for (const char* target : {"ApproxTopK", "PartialReduce"}) {
    CHECK(customCall(target, {{16, 4}, {16, 4}, {}, {}}, {{16, 2}, {16, 2}}) ==
          "<([i, j], [i, j], [], [])->([i, k], [i, k]) {i=16, j=4, k=2} "
          "need_replication={k} blocked_propagation={k}>");
  }
  CHECK(customCall("ApproxTopK", {{16, 4}, {16, 4}}, {{16, 2}, {16, 2}})
            .rfind("error: ApproxTopK", 0) == 0);
}

TEST_CASE("custom_call: targets without a rule") {
  CHECK(customCall("tpu_custom_call", {{8}}, {{8}}) == "no rule");
  CHECK(customCall("xla_python_cpu_callback", {{8}}, {{8}}) == "no rule");
  CHECK(isKnownCustomCallTarget("sdy_testonly"));
  CHECK(customCall("foo", {{4, 2}}, {{2, 4}}) == "no rule");
  CHECK(!isKnownCustomCallTarget("foo"));
  // An unknown target keeps the rule written on the op (a custom rule).
  absl::StatusOr<OpShardingRule> attached = parseRuleNotation(
      "#sdy.op_sharding_rule<([i, j])->([j, i]) {i=4, j=2}, "
      "custom>");
  REQUIRE(attached.ok());
  CHECK(verifiedText(*attached, {{4, 2}}, {{2, 4}}) ==
        "<([i, j])->([j, i]) {i=4, j=2}, custom>");
}

}  // namespace
}  // namespace shardkit
