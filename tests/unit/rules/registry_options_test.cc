// Conservative propagation: no propagation along dimensions whose sharding
// would need data to move between devices.
#include <catch2/catch.hpp>

#include "shardkit/rules/registry.h"
#include "unit/rules/registry_test_util.h"

namespace shardkit {
namespace {

using testing::findOp;
using testing::parseOrFail;
using testing::ruleText;

constexpr std::string_view kModule = R"(
func.func @f(%arg0: tensor<8x4xf32>, %arg1: tensor<f32>, %k: tensor<3x3x3x4xf32>, %x: tensor<2x8x8x3xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %1 = stablehlo.slice %arg0 [0:8, 1:3] : (tensor<8x4xf32>) -> tensor<8x2xf32>
  %2 = stablehlo.pad %arg0, %arg1, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x6xf32>
  %3 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %4 = stablehlo.convolution(%x, %k)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  return %arg0 : tensor<8x4xf32>
})";

RuleOptions conservative() {
  RuleOptions options;
  options.conservative_propagation = true;
  return options;
}

TEST_CASE("conservative: concatenate gets no factor for the concat dim") {
  auto module = parseOrFail(kModule);
  Op op = findOp(*module, "stablehlo.concatenate");
  CHECK(ruleText(op) ==
        "<([i, j], [i, j])->([i, j]) {i=16, j=4} need_replication={i}>");
  // Each concat dim is left with a size-1 factor of its own.
  CHECK(ruleText(op, conservative()) ==
        "<([j, i], [k, i])->([l, i]) {i=4, j=1, k=1, l=1}>");
}

TEST_CASE("conservative: sliced, padded and windowed dims are blocked") {
  auto module = parseOrFail(kModule);
  Op slice = findOp(*module, "stablehlo.slice");
  CHECK(ruleText(slice) == "<([i, j])->([i, j]) {i=8, j=4} permutation={j}>");
  CHECK(ruleText(slice, conservative()) ==
        "<([i, j])->([i, j]) {i=8, j=4} permutation={j} "
        "blocked_propagation={j}>");
  Op pad = findOp(*module, "stablehlo.pad");
  CHECK(ruleText(pad) == "<([i, j], [])->([i, j]) {i=8, j=4} permutation={j}>");
  CHECK(ruleText(pad, conservative()) ==
        "<([i, j], [])->([i, j]) {i=8, j=4} permutation={j} "
        "blocked_propagation={j}>");
  Op window = findOp(*module, "stablehlo.reduce_window");
  CHECK(ruleText(window) ==
        "<([i, j], [])->([i, j]) {i=4, j=4} permutation={i}>");
  CHECK(ruleText(window, conservative()) ==
        "<([i, j], [])->([i, j]) {i=4, j=4} permutation={i} "
        "blocked_propagation={i}>");
}

TEST_CASE("conservative: convolution spatial dims get no factors") {
  auto module = parseOrFail(kModule);
  Op conv = findOp(*module, "stablehlo.convolution");
  // The 8-wide input spatial dims split into 6 windows (permutation); the
  // window factor (8 / 6 rounds to 1) is dropped.
  CHECK(
      ruleText(conv) ==
      "<([i, j, k, l], [n, o, l, m])->([i, j, k, m]) "
      "{i=2, j=6, k=6, l=3, m=4, n=1, o=1} reduction={l} permutation={j, k}>");
  CHECK(ruleText(conv, conservative()) ==
        "<([i, l, m, j], [n, o, j, k])->([i, p, q, k]) "
        "{i=2, j=3, k=4, l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>");
}

}  // namespace
}  // namespace shardkit
