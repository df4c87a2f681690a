// Op sharding rule verification, on rules built by parsing their text.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string_view>
#include <vector>

#include "shardkit/core/tensor_shape.h"
#include "shardkit/core/verify.h"
#include "shardkit/text/parse.h"
#include "unit/core/verify_test_util.h"

namespace shardkit {
namespace {

OpShardingRule rule(std::string_view text) {
  absl::StatusOr<OpShardingRule> parsed = parseOpShardingRule(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

// Shapes outlive the views the tests pass around.
const std::vector<int64_t> k2x4 = {2, 4};
const std::vector<int64_t> k2x8 = {2, 8};
const std::vector<int64_t> k4x2 = {4, 2};
const std::vector<int64_t> k2x2 = {2, 2};
const std::vector<int64_t> k8 = {8};
const std::vector<int64_t> k4 = {4};
const std::vector<int64_t> k2x4x8 = {2, 4, 8};
const std::vector<int64_t> k2x3x5x7 = {2, 3, 5, 7};
const std::vector<int64_t> k2x5x7 = {2, 5, 7};
const std::vector<int64_t> k2x11x7 = {2, 11, 7};
const std::vector<int64_t> kDynamic2 = {kDynamicSize, kDynamicSize};

using Shapes = std::vector<TensorShapeView>;

absl::Status verify(std::string_view text, const Shapes& operands,
                    const Shapes& results) {
  return verifyOpShardingRule(rule(text), operands, results);
}

TEST_CASE("verifyOpShardingRule: valid rules") {
  SK_CHECK_VALID(
      verify("<([i, j], [i, j])->([i, j]) {i=2, j=4}>", {k2x4, k2x4}, {k2x4}));
  SK_CHECK_VALID(verify("<([i, j])->([ij]) {i=2, j=4}>", {k2x4}, {k8}));
  // Factor sizes are not compared with dimension sizes (k=5 on a dim of 11).
  SK_CHECK_VALID(
      verify("<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} "
             "need_replication={i, l} permutation={k} blocked_propagation={l}>",
             {k2x3x5x7}, {k2x11x7}));
  const std::vector<int64_t> scalar;
  SK_CHECK_VALID(verify("<([], [])->([])>", {scalar, scalar}, {scalar}));
}

TEST_CASE("verifyOpShardingRule: mapping counts") {
  SK_CHECK_INVALID(verify("<([i, j], [i, j])->([i, j], [i, j]) {i=2, j=4}>",
                          {k2x4, k2x4}, {k2x4}),
                   "number of results and mappings must match: 1 != 2");
  SK_CHECK_INVALID(
      verify("<([i, j])->([i, j]) {i=2, j=4}>", {k2x4, k2x4}, {k2x4}),
      "number of operands and mappings must match: 2 != 1");
  OpShardingRule no_operands = rule("<([i])->([i]) {i=8}>");
  no_operands.operand_mappings.clear();
  SK_CHECK_INVALID(verifyOpShardingRule(no_operands, {}, {k8}),
                   "number of operands mappings cannot be 0");
  OpShardingRule no_results = rule("<([i])->([i]) {i=8}>");
  no_results.result_mappings.clear();
  SK_CHECK_INVALID(verifyOpShardingRule(no_results, {k8}, {}),
                   "number of results mappings cannot be 0");
}

TEST_CASE("verifyOpShardingRule: ranked static shapes") {
  SK_CHECK_INVALID(verify("<([i, j], [i, j])->([i, j]) {i=2, j=4}>",
                          {kDynamic2, kDynamic2}, {kDynamic2}),
                   "operand 0 - expected a ranked tensor with a static shape");
  SK_CHECK_INVALID(verify("<([i, j])->([i, j]) {i=2, j=4}>", {k2x4},
                          {TensorShapeView::nonShaped()}),
                   "result - expected a ranked tensor with a static shape");
}

TEST_CASE("verifyOpShardingRule: mapping ranks") {
  SK_CHECK_INVALID(
      verify("<([i, j], [i])->([i, j]) {i=2, j=4}>", {k2x4, k2x4}, {k2x4}),
      "operand 1 - mapping rank must match: 1 != 2");
  SK_CHECK_INVALID(
      verify("<([i, j], [i, j])->([i]) {i=2, j=4}>", {k2x4, k2x4}, {k2x4}),
      "result - mapping rank must match: 1 != 2");
}

TEST_CASE("verifyOpShardingRule: dimension mappings") {
  SK_CHECK_INVALID(
      verify("<([i, jk], [i, j])->([i, j]) {i=2, j=8, k=1}>", {k2x8, k2x8},
             {k2x8}),
      "operand 0 - dim mapping can't have a factor of size 1 if there are "
      "multiple factors (factor 'k' at dim 1)");
  // A size-1 factor alone is fine.
  SK_CHECK_VALID(
      verify("<([i, j], [i, j])->([i, j]) {i=2, j=1}>", {k2x8, k2x8}, {k2x8}));

  OpShardingRule empty_dim = rule("<([i, j], [i, j])->([i, j]) {i=2, j=8}>");
  empty_dim.operand_mappings[0].dim_mappings[1].factor_indices.clear();
  SK_CHECK_INVALID(verifyOpShardingRule(empty_dim, {k2x8, k2x8}, {k2x8}),
                   "operand 0 - dim mapping must have at least one factor "
                   "(dim 1)");

  OpShardingRule out_of_range = rule("<([i, j], [i, j])->([i, j]) {i=2, j=8}>");
  out_of_range.operand_mappings[0].dim_mappings[1].factor_indices = {12};
  SK_CHECK_INVALID(
      verifyOpShardingRule(out_of_range, {k2x8, k2x8}, {k2x8}),
      "operand 0 - expecting factor indices to be within 0<=...<num_factors; "
      "received: 12, num_factors: 2");
  out_of_range.operand_mappings[0].dim_mappings[1].factor_indices = {-1};
  SK_CHECK_INVALID(verifyOpShardingRule(out_of_range, {k2x8, k2x8}, {k2x8}),
                   "received: -1, num_factors: 2");
}

TEST_CASE("verifyOpShardingRule: a tensor uses a factor once") {
  SK_CHECK_INVALID(
      verify("<([ij, k])->([iik]) {i=2, j=2, k=2}>", {k4x2}, {k8}),
      "result - cannot reuse factors for the same tensor value (factor 'i' "
      "at dim 0)");
  SK_CHECK_INVALID(verify("<([i, i])->([ij]) {i=2, j=2}>", {k2x2}, {k4}),
                   "operand - cannot reuse factors for the same tensor value "
                   "(factor 'i' at dim 1)");
}

TEST_CASE("verifyOpShardingRule: every factor is used") {
  SK_CHECK_INVALID(verify("<([i, j], [i, j])->([i, j]) {i=2, j=8, k=2}>",
                          {k2x8, k2x8}, {k2x8}),
                   "has factor k=2 that isn't used in operand and result "
                   "mappings");
}

TEST_CASE("verifyOpShardingRule: special factor lists") {
  const Shapes in = {k2x4x8};
  const Shapes out = {k2x8};
  SK_CHECK_VALID(
      verify("<([i, j, k])->([i, k]) {i=2, j=4, k=8} reduction={j} "
             "need_replication={i, k}>",
             in, out));
  OpShardingRule r =
      rule("<([i, j, k])->([i, k]) {i=2, j=4, k=8} need_replication={i, k}>");
  r.need_replication_factors = {2, 0};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "indices of special factors must be sorted "
                   "(need_replication)");
  r.need_replication_factors = {0, 0};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "indices of special factors must be unique "
                   "(need_replication repeats factor 'i')");
  r.need_replication_factors = {17};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "index must be less than 3, got: 17 (need_replication)");
  r.need_replication_factors = {-2, 0};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "index must be non-negative, got: -2");
  r.need_replication_factors = {};
  r.permutation_factors = {3};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "index must be less than 3, got: 3 (permutation)");
}

TEST_CASE("verifyOpShardingRule: a factor has one special kind") {
  const Shapes in = {k2x4x8};
  const Shapes out = {k2x8};
  SK_CHECK_INVALID(verify("<([i, j, k])->([i, k]) {i=2, j=4, k=8} "
                          "reduction={j} need_replication={j}>",
                          in, out),
                   "a factor can only be in one of the reduction, need "
                   "replication, or permutation factor sets (factor 'j')");
  SK_CHECK_INVALID(verify("<([i, j, k])->([i, k]) {i=2, j=4, k=8} "
                          "need_replication={i} permutation={i}>",
                          in, out),
                   "a factor can only be in one of the reduction");
  // Blocked propagation is orthogonal to the kind.
  SK_CHECK_VALID(
      verify("<([i, j, k])->([i, k]) {i=2, j=4, k=8} "
             "reduction={j} blocked_propagation={j}>",
             in, out));
}

TEST_CASE("verifyOpShardingRule: blocked propagation list") {
  const Shapes in = {k2x4x8};
  const Shapes out = {k2x8};
  OpShardingRule r = rule("<([i, j, k])->([i, k]) {i=2, j=4, k=8}>");
  r.blocked_propagation_factors = {1, 0};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "indices of special factors must be sorted "
                   "(blocked_propagation)");
  r.blocked_propagation_factors = {5};
  SK_CHECK_INVALID(verifyOpShardingRule(r, in, out),
                   "index must be less than 3, got: 5 (blocked_propagation)");
}

TEST_CASE("verifyOpShardingRule: reduction factors are not in results") {
  SK_CHECK_INVALID(
      verify("<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} "
             "reduction={k}>",
             {k2x3x5x7}, {k2x5x7}),
      "reduction factor cannot be in result mappings (factor 'k' in result "
      "0)");
  // Checked before anything else, as the reference does when building it.
  SK_CHECK_INVALID(verify("<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} "
                          "reduction={k}>",
                          {}, {}),
                   "reduction factor cannot be in result mappings");
}

}  // namespace
}  // namespace shardkit
