// -sdy-remove-size-one-axes and -sdy-explicit-gather-scatter-batching.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/import_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::onlyOp;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::sharding;
using import_testing::shardingText;

// --- remove size-one axes ----------------------------------------------------

TEST_CASE(
    "size-one axes: dropped from dimension, replicated and unreduced axes") {
  Mesh mesh({{"a", 1}, {"b", 2}, {"c", 1}, {"d", 4}});
  CHECK(
      removeSizeOneAxes(
          sharding(
              R"(<@m, [{"a", "b"}, {"c", ?}], replicated={"c"}, unreduced={"a", "d"}>)"),
          mesh) == sharding(R"(<@m, [{"b"}, {?}], unreduced={"d"}>)"));
  // The reduction kind of the unreduced axes stays.
  CHECK(toString(removeSizeOneAxes(
            sharding(R"(<@m, [{}], unreduced=max{"c", "d"}>)"), mesh)) ==
        R"(<@m, [{}], unreduced=max{"d"}>)");
  // Sub-axes that only a size-1 axis kept apart are merged.
  CHECK(removeSizeOneAxes(sharding(R"(<@m, [{"d":(1)2, "a", "d":(2)2}]>)"),
                          mesh) == sharding(R"(<@m, [{"d"}]>)"));
  // A closed dimension left empty loses its priority; an open one keeps it.
  CHECK(removeSizeOneAxes(sharding(R"(<@m, [{"a"}p1, {"c", ?}p2]>)"), mesh) ==
        sharding(R"(<@m, [{}, {?}p2]>)"));
}

TEST_CASE("size-one axes: every sharding of the module, meshes unchanged") {
  auto module = parse(R"(
sdy.mesh @m = <["a"=1, "b"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", "b"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b", "a"}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=1, "y"=2]>, [{"x", ?}]>]>} : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@m, [{"a"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)");
  requireOk(removeSizeOneAxes(*module));
  FuncOp func(module->functions().front());
  CHECK(toString(func.argAttr(0, "sdy.sharding")) ==
        R"(#sdy.sharding<@m, [{"b"}]>)");
  CHECK(toString(func.resultAttr(0, "sdy.sharding")) ==
        R"(#sdy.sharding<@m, [{"b"}]>)");
  CHECK(shardingText(onlyOp(*module, "stablehlo.abs"), "sdy.sharding") ==
        R"(#sdy.sharding_per_value<[<mesh<["x"=1, "y"=2]>, [{?}]>]>)");
  CHECK(shardingText(onlyOp(*module, "sdy.sharding_constraint"), "sharding") ==
        R"(#sdy.sharding<@m, [{}]>)");
  CHECK(toString(onlyOp(*module, "sdy.mesh").attr("mesh")) ==
        R"(#sdy.mesh<["a"=1, "b"=2]>)");
}

TEST_CASE("size-one axes: nothing changes without a mesh symbol with one") {
  auto module = parse(R"(
sdy.mesh @m = <["b"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=1, "b"=2]>, [{"a", "b"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)");
  requireOk(removeSizeOneAxes(*module));
  CHECK(toString(
            FuncOp(module->functions().front()).argAttr(0, "sdy.sharding")) ==
        R"(#sdy.sharding<mesh<["a"=1, "b"=2]>, [{"a", "b"}]>)");
}

// --- explicit gather/scatter batching
// ------------------------------------------

std::string attrText(Op op, std::string_view name) {
  return toString(op.attr(name));
}

TEST_CASE("batching: an iota batch index of a gather becomes a batching dim") {
  auto module = parse(R"(
func.func @f(%operand: tensor<4x8x16xf32>, %i: tensor<4x1xi32>, %j: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %indices = stablehlo.concatenate %i, %iota, %j, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  %r = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0, 2], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1, 1>, indices_are_sorted = false
  } : (tensor<4x8x16xf32>, tensor<4x3xi32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}
)");
  requireOk(explicitGatherScatterBatching(*module));
  Op gather = onlyOp(*module, "stablehlo.gather");
  CHECK(attrText(gather, "dimension_numbers") ==
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], "
        "operand_batching_dims = [0], start_indices_batching_dims = [0], "
        "start_index_map = [1, 2], index_vector_dim = 1>");
  // The new indices concatenate the other two components; the old
  // concatenate and the iota are gone.
  Op concat = gather.operand(1).definingOp();
  REQUIRE(concat);
  CHECK(concat.name() == "stablehlo.concatenate");
  CHECK(concat.numOperands() == 2);
  CHECK(concat.result(0).type().str() == "tensor<4x2xi32>");
  CHECK(countOps(*module, "stablehlo.iota") == 0);
  CHECK(countOps(*module, "stablehlo.concatenate") == 1);
}

TEST_CASE("batching: indices that aren't a concatenate are sliced") {
  auto module = parse(R"(
func.func @f(%operand: tensor<4x8xf32>, %i: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %iota = stablehlo.iota dim = 0 : tensor<4x2xi32>
  %r = "stablehlo.gather"(%operand, %iota) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1>, indices_are_sorted = false
  } : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}
)");
  requireOk(explicitGatherScatterBatching(*module));
  Op gather = onlyOp(*module, "stablehlo.gather");
  Op slice = gather.operand(1).definingOp();
  REQUIRE(slice);
  CHECK(slice.name() == "stablehlo.slice");
  CHECK(attrText(slice, "start_indices") == "array<i64: 0, 1>");
  CHECK(attrText(slice, "limit_indices") == "array<i64: 4, 2>");
  CHECK(slice.result(0).type().str() == "tensor<4x1xi32>");
}

TEST_CASE("batching: scatter, and what is left alone") {
  auto module = parse(R"(
func.func @f(%x: tensor<4x8xi32>, %off: tensor<4x1xi32>, %u: tensor<4xi32>) -> (tensor<4x8xi32>, tensor<4x8xi32>) {
  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %idx = stablehlo.concatenate %iota, %off, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<4x8xi32>, tensor<4x2xi32>, tensor<4xi32>) -> tensor<4x8xi32>
  %iota1 = stablehlo.iota dim = 1 : tensor<4x1xi32>
  %idx1 = stablehlo.concatenate %iota1, %off, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %1 = "stablehlo.scatter"(%x, %idx1, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<4x8xi32>, tensor<4x2xi32>, tensor<4xi32>) -> tensor<4x8xi32>
  return %0, %1 : tensor<4x8xi32>, tensor<4x8xi32>
}
)");
  requireOk(explicitGatherScatterBatching(*module));
  std::vector<Op> scatters =
      import_testing::opsNamed(*module, "stablehlo.scatter");
  REQUIRE(scatters.size() == 2);
  CHECK(attrText(scatters[0], "scatter_dimension_numbers") ==
        "#stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = "
        "[0], scatter_indices_batching_dims = [0], "
        "scatter_dims_to_operand_dims = [1], index_vector_dim = 1>");
  CHECK(scatters[0].operand(1) ==
        FuncOp(module->functions().front()).argument(1));
  // An iota along dimension 1 doesn't index the batch.
  CHECK(attrText(scatters[1], "scatter_dimension_numbers") ==
        "#stablehlo.scatter<inserted_window_dims = [0, 1], "
        "scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>");
}

}  // namespace
}  // namespace shardkit
