// The registry on small modules: one representative per op family, read in
// both the pretty and the generic spelling, and the facts some rules take
// from an op's surroundings.
#include <catch2/catch.hpp>

#include "shardkit/rules/registry.h"
#include "unit/rules/registry_test_util.h"

namespace shardkit {
namespace {

using testing::findOp;
using testing::parseOrFail;
using testing::ruleOf;
using testing::ruleText;

TEST_CASE("registry: elementwise ops are pointwise in either spelling") {
  constexpr std::string_view kText = R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<4x2xf32>, %arg1: tensor<f32>) -> tensor<4x2xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4x2xf32>
  %1 = "stablehlo.multiply"(%0, %arg0) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = stablehlo.tanh %arg1 : tensor<f32>
  %3 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<4x2xf32>
  return %3 : tensor<4x2xf32>
})";
  auto module = parseOrFail(kText);
  CHECK(ruleText(findOp(*module, "stablehlo.add")) ==
        "<([i, j], [i, j])->([i, j]) {i=4, j=2}>");
  CHECK(ruleText(findOp(*module, "stablehlo.multiply")) ==
        "<([i, j], [i, j])->([i, j]) {i=4, j=2}>");
  CHECK(ruleText(findOp(*module, "stablehlo.tanh")) == "<([])->([])>");
  CHECK(ruleText(findOp(*module, "sdy.sharding_constraint")) ==
        "<([i, j])->([i, j]) {i=4, j=2}>");
}

TEST_CASE("registry: dot_general reads #stablehlo.dot in both spellings") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<3x6xf32>, %arg1: tensor<6x5xf32>) -> tensor<3x5xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<3x6xf32>, tensor<6x5xf32>) -> tensor<3x5xf32>
  %1 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<3x6xf32>, tensor<6x5xf32>) -> tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
})";
  auto module = parseOrFail(kText);
  const std::string expected =
      "<([i, k], [k, j])->([i, j]) {i=3, j=5, k=6} reduction={k}>";
  CHECK(ruleText(findOp(*module, "stablehlo.dot_general", 0)) == expected);
  CHECK(ruleText(findOp(*module, "stablehlo.dot_general", 1)) == expected);
}

TEST_CASE("registry: integer lists as [..], array<i64: ..> or dense<..>") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<5xf32>) -> tensor<3x5xf32>
  %1 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1>} : (tensor<5xf32>) -> tensor<3x5xf32>
  %2 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = dense<1> : tensor<1xi64>} : (tensor<5xf32>) -> tensor<3x5xf32>
  %3 = "stablehlo.transpose"(%2) {permutation = dense<[1, 0]> : tensor<2xi64>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
  return %2 : tensor<3x5xf32>
})";
  auto module = parseOrFail(kText);
  for (int i = 0; i < 3; ++i) {
    CHECK(ruleText(findOp(*module, "stablehlo.broadcast_in_dim", i)) ==
          "<([j])->([i, j]) {i=3, j=5}>");
  }
  CHECK(ruleText(findOp(*module, "stablehlo.transpose")) ==
        "<([j, i])->([i, j]) {i=5, j=3}>");
}

TEST_CASE("registry: reshape factors compound dims; empty tensors no rule") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<6xf32>, %arg1: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<6xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.reshape %arg1 : (tensor<0x3xf32>) -> tensor<3x0xf32>
  return %0 : tensor<2x3xf32>
})";
  auto module = parseOrFail(kText);
  CHECK(ruleText(findOp(*module, "stablehlo.reshape", 0)) ==
        "<([ij])->([i, j]) {i=2, j=3}>");
  CHECK(ruleText(findOp(*module, "stablehlo.reshape", 1)) == "no rule");
}

TEST_CASE(
    "registry: concatenate of slices permutes, of whole values "
    "replicates") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<6x4xf32>, %arg1: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = stablehlo.slice %arg0 [0:2, 0:4] : (tensor<6x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.slice %arg0 [2:6, 0:4] : (tensor<6x4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<6x4xf32>
  %3 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<12x4xf32>
  %4 = stablehlo.concatenate %0, %arg0, dim = 0 : (tensor<2x4xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %5 = stablehlo.concatenate %0, %arg1, dim = 0 : (tensor<2x4xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<6x4xf32>
})";
  auto module = parseOrFail(kText);
  // Both operands are slices.
  CHECK(ruleText(findOp(*module, "stablehlo.concatenate", 0)) ==
        "<([i, j], [i, j])->([i, j]) {i=6, j=4} permutation={i}>");
  // No slice at all.
  CHECK(ruleText(findOp(*module, "stablehlo.concatenate", 1)) ==
        "<([i, j], [i, j])->([i, j]) {i=12, j=4} need_replication={i}>");
  // A slice of %arg0 next to %arg0 itself.
  CHECK(ruleText(findOp(*module, "stablehlo.concatenate", 2)) ==
        "<([i, j], [i, j])->([i, j]) {i=8, j=4} permutation={i}>");
  // A slice of %arg0 next to another value.
  CHECK(ruleText(findOp(*module, "stablehlo.concatenate", 3)) ==
        "<([i, j], [i, j])->([i, j]) {i=8, j=4} need_replication={i}>");
}

TEST_CASE("registry: dynamic_update_slice with constant start indices") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<8x6xf32>, %arg1: tensor<8x2xf32>, %arg2: tensor<i32>) -> tensor<8x6xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %c : (tensor<8x6xf32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %c, %arg2 : (tensor<8x6xf32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %2 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %c : (tensor<8x6xf32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
})";
  auto module = parseOrFail(kText);
  CHECK(ruleText(findOp(*module, "stablehlo.dynamic_update_slice", 0)) ==
        "<([i, j], [i, k], [], [])->([i, j]) {i=8, j=6, k=2}>");
  // The sliced dim 1 has a start index that is not a constant.
  CHECK(ruleText(findOp(*module, "stablehlo.dynamic_update_slice", 1)) ==
        "<([i, j], [i, k], [], [])->([i, j]) {i=8, j=6, k=2} "
        "need_replication={k}>");
  // Only the start index of dim 0 (not sliced) varies.
  CHECK(ruleText(findOp(*module, "stablehlo.dynamic_update_slice", 2)) ==
        "<([i, j], [i, k], [], [])->([i, j]) {i=8, j=6, k=2}>");
}

// A scatter of 2 rows of 3 into a 4x3 input; `body` is the update
// computation over (%c: current, %u: update).
std::string scatterRule(std::string_view body) {
  std::string text = strCat(R"(
func.func @f(%arg0: tensor<4x3xf32>, %arg1: tensor<2x1xi64>, %arg2: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
    ^bb0(%c: tensor<f32>, %u: tensor<f32>):
)",
                            body, R"(
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>
  } : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
})");
  return ruleOf(text, "stablehlo.scatter");
}

TEST_CASE("registry: scatter batch dims reduce only for a plain combiner") {
  const std::string reduced =
      "<([k, j], [i, l], [i, j])->([k, j]) {i=2, j=3, k=4, l=1} "
      "reduction={i} need_replication={l}>";
  const std::string replicated =
      "<([k, j], [i, l], [i, j])->([k, j]) {i=2, j=3, k=4, l=1} "
      "need_replication={i, l}>";
  CHECK(scatterRule("%s = stablehlo.add %c, %u : tensor<f32>\n"
                    "stablehlo.return %s : tensor<f32>") == reduced);
  CHECK(scatterRule("%s = stablehlo.maximum %u, %c : tensor<f32>\n"
                    "stablehlo.return %s : tensor<f32>") == reduced);
  CHECK(scatterRule("%s = stablehlo.multiply %c, %u : tensor<f32>\n"
                    "stablehlo.return %s : tensor<f32>") == replicated);
  // Overwriting (the update is returned as is) is not a reduction.
  CHECK(scatterRule("stablehlo.return %u : tensor<f32>") == replicated);
  // Combining the update with itself is not either.
  CHECK(scatterRule("%s = stablehlo.add %u, %u : tensor<f32>\n"
                    "stablehlo.return %s : tensor<f32>") == replicated);
}

TEST_CASE("registry: a variadic scatter needs one combiner for all inputs") {
  auto rule = [](std::string_view first, std::string_view second) {
    std::string text = strCat(R"(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>, %i: tensor<2x1xi64>, %ua: tensor<2xf32>, %ub: tensor<2xi32>) -> tensor<4xf32> {
  %0:2 = "stablehlo.scatter"(%a, %b, %i, %ua, %ub) ({
    ^bb0(%ca: tensor<f32>, %cb: tensor<i32>, %xa: tensor<f32>, %xb: tensor<i32>):
      %s = stablehlo.)",
                              first, R"( %ca, %xa : tensor<f32>
      %t = stablehlo.)",
                              second, R"( %cb, %xb : tensor<i32>
      stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>
  } : (tensor<4xf32>, tensor<4xi32>, tensor<2x1xi64>, tensor<2xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0 : tensor<4xf32>
})");
    return ruleOf(text, "stablehlo.scatter");
  };
  CHECK(rule("minimum", "minimum") ==
        "<([j], [j], [i, k], [i], [i])->([j], [j]) {i=2, j=4, k=1} "
        "reduction={i} need_replication={k}>");
  CHECK(rule("add", "maximum") ==
        "<([j], [j], [i, k], [i], [i])->([j], [j]) {i=2, j=4, k=1} "
        "need_replication={i, k}>");
}

TEST_CASE("registry: gather") {
  CHECK(ruleOf(R"(
func.func @f(%arg0: tensor<5x4xf32>, %arg1: tensor<3x1xi64>) -> tensor<3x4xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>
  } : (tensor<5x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
})",
               "stablehlo.gather") ==
        "<([k, j], [i, l])->([i, j]) {i=3, j=4, k=5, l=1} reduction={k} "
        "need_replication={l}>");
}

TEST_CASE("registry: custom calls by target, X64Combine feeding an rng") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<2xui32>, %arg1: tensor<2xui32>, %arg2: tensor<3x2xf32>) -> tensor<4xui32> {
  %0 = stablehlo.custom_call @X64Combine(%arg0, %arg1) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>
  %1 = stablehlo.custom_call @X64Combine(%arg0, %arg1) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>
  %state, %out = stablehlo.rng_bit_generator %1, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %2 = stablehlo.custom_call @Cholesky(%arg2) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.custom_call @my_unknown_target(%arg2) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %out : tensor<4xui32>
})";
  auto module = parseOrFail(kText);
  CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 0)) ==
        "<([i], [i])->([i]) {i=2}>");
  CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 1)) ==
        "<([i], [i])->([i]) {i=2} need_replication={i} "
        "blocked_propagation={i}>");
  CHECK(ruleText(findOp(*module, "stablehlo.rng_bit_generator")) ==
        "<([i])->([i], [j]) {i=2, j=4} need_replication={i} "
        "blocked_propagation={i}>");
  CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 2)) ==
        "<([i, j])->([i, j]) {i=3, j=2}>");
  CHECK(ruleText(findOp(*module, "stablehlo.custom_call", 3)) == "no rule");
}

TEST_CASE("registry: reductions, windows and sort read their attributes") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<6x4xf32>, %arg1: tensor<f32>, %arg2: tensor<3x4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>,
      padding = dense<[[0, 0], [1, -1]]> : tensor<2x2xi64>} : (tensor<6x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %2 = "stablehlo.sort"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<4xf32>
})";
  auto module = parseOrFail(kText);
  CHECK(ruleText(findOp(*module, "stablehlo.reduce")) ==
        "<([i, j], [])->([j]) {i=6, j=4} reduction={i}>");
  // Dim 0 shrinks, dim 1 is shifted by its padding: both move data.
  CHECK(ruleText(findOp(*module, "stablehlo.reduce_window")) ==
        "<([i, j], [])->([i, j]) {i=3, j=4} permutation={i, j}>");
  // Without a `dimension`, sort sorts along the last dim.
  CHECK(ruleText(findOp(*module, "stablehlo.sort")) ==
        "<([i, j])->([i, j]) {i=6, j=4} need_replication={j}>");
}

TEST_CASE("registry: triangular_solve reads transpose_a") {
  auto rule = [](std::string_view transpose) {
    return ruleOf(
        strCat(R"(
func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose )",
               transpose,
               R"(>} : (tensor<3x3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
})"),
        "stablehlo.triangular_solve");
  };
  const std::string plain =
      "<([i, k], [i, j])->([k, j]) {i=3, j=5, k=3} need_replication={i, j, k}>";
  const std::string transposed =
      "<([k, i], [i, j])->([k, j]) {i=3, j=5, k=3} need_replication={i, j, k}>";
  CHECK(rule("NO_TRANSPOSE") == plain);
  CHECK(rule("TRANSPOSE") == transposed);
  CHECK(rule("ADJOINT") == transposed);
}

TEST_CASE("registry: ops without a rule") {
  constexpr std::string_view kText = R"(
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<?x4xf32>, %arg2: tensor<*xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %b = stablehlo.optimization_barrier %arg0 : tensor<4xf32>
  %u = "mydialect.op"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %d = stablehlo.add %arg1, %arg1 : tensor<?x4xf32>
  %e = stablehlo.abs %arg2 : tensor<*xf32>
  return %b : tensor<4xf32>
})";
  auto module = parseOrFail(kText);
  for (std::string_view name : {"stablehlo.constant", "stablehlo.iota",
                                "stablehlo.optimization_barrier",
                                "mydialect.op", "func.return", "func.func"}) {
    INFO(name);
    CHECK(ruleText(findOp(*module, name)) == "no rule");
  }
  // Rules need static shapes.
  CHECK(ruleText(findOp(*module, "stablehlo.add")) == "no rule");
  CHECK(ruleText(findOp(*module, "stablehlo.abs")) == "no rule");
}

}  // namespace
}  // namespace shardkit
