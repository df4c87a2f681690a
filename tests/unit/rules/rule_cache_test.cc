// RuleCache (src/rules/rule_cache.h): ops with the same name, operand and
// result types and inherent attributes share an entry; any difference, or a
// rule that looks beyond the op, does not. RuleTable keeps the rules.
#include "src/rules/rule_cache.h"

#include <catch2/catch.hpp>

#include "unit/rules/registry_test_util.h"

namespace shardkit {
namespace {

using testing::findOp;
using testing::parseOrFail;

TEST_CASE("the rule cache keys an op by name, types and inherent attributes") {
  std::unique_ptr<Module> module = parseOrFail(R"(
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>,
             %d: tensor<4x16xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.add %c, %c : tensor<8x4xf32>
  %1 = stablehlo.add %0, %c : tensor<8x4xf32>
  %2 = stablehlo.multiply %1, %c : tensor<8x4xf32>
  %3 = stablehlo.add %a, %a : tensor<8x16xf32>
  %4 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %5 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %6 = stablehlo.dot_general %d, %a, contracting_dims = [1] x [1] : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %8 = stablehlo.concatenate %7, %5, dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %9 = stablehlo.concatenate %7, %5, dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  return %2 : tensor<8x4xf32>
}
)");
  RuleCache cache;
  Op add0 = findOp(*module, "stablehlo.add", 0);
  Op add1 = findOp(*module, "stablehlo.add", 1);
  Op add_wide = findOp(*module, "stablehlo.add", 2);
  Op mul = findOp(*module, "stablehlo.multiply");
  CHECK_FALSE(cache.find(add0).has_value());
  cache.insert(add0, 7);
  CHECK(cache.find(add0) == 7);
  CHECK(cache.find(add1) == 7);              // same signature, other operands
  CHECK_FALSE(cache.find(mul).has_value());  // another name
  CHECK_FALSE(cache.find(add_wide).has_value());  // other types
  cache.insert(add1, 8);                          // the first index stays
  CHECK(cache.find(add0) == 7);

  Op dot0 = findOp(*module, "stablehlo.dot_general", 0);
  Op dot1 = findOp(*module, "stablehlo.dot_general", 1);
  Op dot_other = findOp(*module, "stablehlo.dot_general", 2);
  cache.insert(dot0, 3);
  CHECK(cache.find(dot1) == 3);
  CHECK_FALSE(cache.find(dot_other).has_value());  // other dims and types
  cache.insert(dot_other, 4);
  CHECK(cache.find(dot_other) == 4);
  CHECK(cache.find(dot0) == 3);

  // A concatenate's rule looks at its operands' producers: never cached.
  Op concat0 = findOp(*module, "stablehlo.concatenate", 0);
  Op concat1 = findOp(*module, "stablehlo.concatenate", 1);
  cache.insert(concat0, 9);
  CHECK_FALSE(cache.find(concat0).has_value());
  CHECK_FALSE(cache.find(concat1).has_value());
}

TEST_CASE("the rule cache tells apart ops that differ only in an attribute") {
  std::unique_ptr<Module> module = parseOrFail(R"(
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.transpose %0, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
)");
  RuleCache cache;
  cache.insert(findOp(*module, "stablehlo.transpose", 0), 1);
  CHECK_FALSE(
      cache.find(findOp(*module, "stablehlo.transpose", 1)).has_value());
  CHECK(cache.find(findOp(*module, "stablehlo.transpose", 2)) == 1);
  cache.insert(findOp(*module, "stablehlo.transpose", 1), 2);
  CHECK(cache.find(findOp(*module, "stablehlo.transpose", 1)) == 2);
}

TEST_CASE("a rule table keeps each rule at its address and its index") {
  std::unique_ptr<Module> module = parseOrFail(R"(
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %a : tensor<8xf32>
  %1 = stablehlo.add %0, %a : tensor<8xf32>
  %2 = stablehlo.multiply %1, %a : tensor<8xf32>
  return %2 : tensor<8xf32>
}
)");
  RuleTable table;
  OpShardingRule first;
  first.factor_sizes = {8};
  int32_t index = table.add(first);
  const OpShardingRule* address = table.get(index);
  // Rules added later leave the address of the first where it was.
  for (int64_t i = 0; i < 100; ++i) {
    OpShardingRule other;
    other.factor_sizes = {i};
    CHECK(table.add(std::move(other)) == index + 1 + i);
  }
  CHECK(table.get(index) == address);
  CHECK(table.get(index)->factor_sizes == std::vector<int64_t>{8});
  CHECK(table.get(-1) == nullptr);
  CHECK(table.size() == 101);

  // Signatures record an index, -1 for "no rule".
  Op add0 = findOp(*module, "stablehlo.add", 0);
  Op add1 = findOp(*module, "stablehlo.add", 1);
  Op mul = findOp(*module, "stablehlo.multiply");
  table.record(add0, index);
  table.record(mul, -1);
  CHECK(table.find(add1) == index);
  CHECK(table.find(mul) == -1);

  // A rule taken out keeps its address in the table it moves to.
  RuleTable other;
  std::unique_ptr<OpShardingRule> taken = table.take(index);
  CHECK(taken.get() == address);
  CHECK(table.get(index) == nullptr);
  int32_t moved = other.add(std::move(taken));
  CHECK(moved == 0);
  CHECK(other.get(moved) == address);
  CHECK_FALSE(other.find(add0).has_value());
}

}  // namespace
}  // namespace shardkit
