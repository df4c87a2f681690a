#include "shardkit/core/op_sharding_rule.h"

#include <catch2/catch.hpp>
#include <vector>

#include "unit/core/value_test_util.h"

namespace shardkit {
namespace {

using testing::checkFormats;
using testing::checkValueSemantics;

TensorMapping tensor(std::vector<std::vector<int64_t>> dims) {
  TensorMapping mapping;
  for (auto& factors : dims) mapping.dim_mappings.push_back({factors});
  return mapping;
}

// ([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}
OpShardingRule matmul() {
  OpShardingRule rule;
  rule.factor_sizes = {8, 16, 4};
  rule.operand_mappings = {tensor({{0}, {2}}), tensor({{2}, {1}})};
  rule.result_mappings = {tensor({{0}, {1}})};
  rule.reduction_factors = {2};
  return rule;
}

TEST_CASE("factorSymbol: i..z, then z_1, z_2, ...") {
  CHECK(factorSymbol(0) == "i");
  CHECK(factorSymbol(1) == "j");
  CHECK(factorSymbol(17) == "z");
  CHECK(factorSymbol(18) == "z_1");
  CHECK(factorSymbol(19) == "z_2");
  CHECK(factorSymbol(27) == "z_10");
  CHECK(factorSymbol(int64_t{1} << 40) == "z_1099511627759");
}

TEST_CASE("DimMapping and TensorMapping: value semantics and text") {
  checkValueSemantics<DimMapping>({{}, {{0}}, {{1}}, {{0, 1}}, {{1, 0}}});
  checkValueSemantics<TensorMapping>({tensor({}), tensor({{0}}),
                                      tensor({{0}, {1}}), tensor({{0, 1}}),
                                      tensor({{1}, {0}})});
  checkFormats(DimMapping{{0, 1}}, "ij");
  checkFormats(DimMapping{{17, 18, 27}}, "zz_1z_10");
  checkFormats(tensor({{0}, {1, 2}, {3}}), "[i, jk, l]");
  checkFormats(tensor({}), "[]");
  CHECK(tensor({{0}, {1, 2}}).rank() == 2);
  CHECK(tensor({{0}, {1, 2}}).containsFactor(2));
  CHECK_FALSE(tensor({{0}, {1, 2}}).containsFactor(3));
}

TEST_CASE("OpShardingRule: value semantics") {
  OpShardingRule base = matmul();
  std::vector<OpShardingRule> values = {base, OpShardingRule()};
  auto variant = [&](auto&& change) {
    OpShardingRule rule = base;
    change(rule);
    values.push_back(rule);
  };
  variant([](OpShardingRule& r) { r.factor_sizes[1] = 8; });
  variant([](OpShardingRule& r) { r.operand_mappings.pop_back(); });
  variant([](OpShardingRule& r) { r.result_mappings[0] = tensor({{1}, {0}}); });
  variant([](OpShardingRule& r) { r.reduction_factors.clear(); });
  variant([](OpShardingRule& r) {
    r.reduction_factors.clear();
    r.need_replication_factors = {2};
  });
  variant([](OpShardingRule& r) {
    r.reduction_factors.clear();
    r.permutation_factors = {2};
  });
  variant([](OpShardingRule& r) { r.blocked_propagation_factors = {2}; });
  variant([](OpShardingRule& r) { r.is_custom_rule = true; });
  checkValueSemantics(values);
}

TEST_CASE("OpShardingRule: text") {
  checkFormats(matmul(),
               "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} "
               "reduction={k}>");
  CHECK(toAttrString(matmul()) ==
        "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} "
        "reduction={k}>");

  OpShardingRule scalar;
  scalar.operand_mappings = {tensor({}), tensor({})};
  scalar.result_mappings = {tensor({})};
  checkFormats(scalar, "<([], [])->([])>");

  OpShardingRule special;
  special.factor_sizes = {2, 3, 5, 7};
  special.operand_mappings = {tensor({{0}, {1}, {2}, {3}})};
  special.result_mappings = {tensor({{0}, {2}, {3}})};
  special.reduction_factors = {1};
  special.need_replication_factors = {0, 3};
  special.permutation_factors = {2};
  special.blocked_propagation_factors = {3};
  special.is_custom_rule = true;
  checkFormats(special,
               "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} "
               "reduction={j} need_replication={i, l} permutation={k} "
               "blocked_propagation={l}, custom>");

  OpShardingRule reshape;
  reshape.factor_sizes = {2, 4};
  reshape.operand_mappings = {tensor({{0}, {1}})};
  reshape.result_mappings = {tensor({{0, 1}})};
  checkFormats(reshape, "<([i, j])->([ij]) {i=2, j=4}>");
}

TEST_CASE("OpShardingRule: helpers") {
  OpShardingRule rule = matmul();
  rule.need_replication_factors = {0};
  rule.blocked_propagation_factors = {1, 2};
  CHECK(rule.numFactors() == 3);
  CHECK(rule.numOperands() == 2);
  CHECK(rule.numResults() == 1);
  CHECK(rule.numTensors() == 3);
  CHECK(&rule.tensorMapping(0) == &rule.operand_mappings[0]);
  CHECK(&rule.tensorMapping(1) == &rule.operand_mappings[1]);
  CHECK(&rule.tensorMapping(2) == &rule.result_mappings[0]);
  CHECK(rule.factorType(0) == FactorType::kNeedReplication);
  CHECK(rule.factorType(1) == FactorType::kPassThrough);
  CHECK(rule.factorType(2) == FactorType::kReduction);
  rule.permutation_factors = {1};
  CHECK(rule.factorType(1) == FactorType::kPermutation);
  CHECK_FALSE(rule.isBlocked(0));
  CHECK(rule.isBlocked(1));
  CHECK(rule.isBlocked(2));
  CHECK(rule.isFactorInAllResults(0));
  CHECK(rule.isFactorInAllResults(1));
  CHECK_FALSE(rule.isFactorInAllResults(2));

  // With two results, a factor must be in both.
  rule.result_mappings.push_back(tensor({{0}}));
  CHECK(rule.isFactorInAllResults(0));
  CHECK_FALSE(rule.isFactorInAllResults(1));
}

}  // namespace
}  // namespace shardkit
