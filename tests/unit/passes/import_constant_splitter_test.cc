// -sdy-constant-splitter and -sdy-constant-or-scalar-splitter on parsed
// modules.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/import_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::onlyOp;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;

// True if the result of each of `ops` has at most one user.
bool eachHasOneUser(const std::vector<Op>& ops) {
  for (Op op : ops) {
    if (op.result(0).numUses() > 1) return false;
  }
  return true;
}

constexpr std::string_view kShared = R"(
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.add %arg0, %1 : tensor<4xf32>
  %3 = stablehlo.multiply %2, %1 : tensor<4xf32>
  %4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %5 = stablehlo.add %arg1, %4 : tensor<f32>
  return %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>
}
)";

TEST_CASE("constant-splitter gives every use its own sub-computation") {
  auto module = parse(kShared);
  requireOk(splitConstants(*module, ConstantSplitMode::kConstants));
  CHECK(countOps(*module, "stablehlo.constant") == 0);
  // constant+negate is used twice: one extra copy of both; the scalar too.
  std::vector<Op> constants = opsNamed(*module, "sdy.constant");
  CHECK(constants.size() == 4);
  CHECK(countOps(*module, "stablehlo.negate") == 2);
  CHECK(eachHasOneUser(constants));
  CHECK(eachHasOneUser(opsNamed(*module, "stablehlo.negate")));
  // The copies carry the same value.
  for (Op c : constants) CHECK(c.hasAttr("value"));
}

TEST_CASE("constant-or-scalar-splitter shares scalars and drops originals") {
  auto module = parse(kShared);
  requireOk(splitConstants(*module, ConstantSplitMode::kConstantsOrScalars));
  CHECK(countOps(*module, "stablehlo.constant") == 0);
  // Two copies of constant+negate (originals erased), one shared scalar.
  CHECK(countOps(*module, "sdy.constant") == 3);
  CHECK(countOps(*module, "stablehlo.negate") == 2);
  CHECK(eachHasOneUser(opsNamed(*module, "stablehlo.negate")));
  Op scalar_add = opsNamed(*module, "stablehlo.add").back();
  Op scalar = scalar_add.operand(1).definingOp();
  CHECK(scalar.name() == "sdy.constant");
  CHECK(scalar.result(0).numUses() == 2);
}

TEST_CASE("a broadcast of a scalar argument is split only in scalar mode") {
  constexpr std::string_view text = R"(
func.func @f(%arg0: tensor<f32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<4xf32>
  %2 = stablehlo.subtract %0, %arg1 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}
)";
  auto constants_only = parse(text);
  requireOk(splitConstants(*constants_only, ConstantSplitMode::kConstants));
  CHECK(countOps(*constants_only, "stablehlo.broadcast_in_dim") == 1);

  auto scalars = parse(text);
  requireOk(splitConstants(*scalars, ConstantSplitMode::kConstantsOrScalars));
  std::vector<Op> broadcasts = opsNamed(*scalars, "stablehlo.broadcast_in_dim");
  CHECK(broadcasts.size() == 2);
  CHECK(eachHasOneUser(broadcasts));
  FuncOp func(scalars->functions().front());
  for (Op b : broadcasts) CHECK(b.operand(0) == func.argument(0));
}

TEST_CASE("a non-constant op ends a constant sub-computation") {
  auto module = parse(R"(
func.func @f(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<4x4xf32>
  %1 = stablehlo.dot %0, %0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<4x4xf32>
  %3 = stablehlo.multiply %1, %arg0 : tensor<4x4xf32>
  return %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>
}
)");
  requireOk(splitConstants(*module, ConstantSplitMode::kConstantsOrScalars));
  // The dot is not constant-preserving: it is kept once, with one constant
  // per operand.
  Op dot = onlyOp(*module, "stablehlo.dot");
  CHECK(dot.result(0).numUses() == 2);
  CHECK(!(dot.operand(0) == dot.operand(1)));
  CHECK(countOps(*module, "sdy.constant") == 2);
}

}  // namespace
}  // namespace shardkit
