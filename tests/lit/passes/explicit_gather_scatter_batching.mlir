// RUN: shardkit-opt %s -sdy-explicit-gather-scatter-batching | FileCheck %s

// Row-wise indexing, with the batch iota broadcast and clamped on its way:
// operand dimension 0 becomes a batching dimension, the iota component leaves
// the indices, and the ops that only computed it are erased.
// CHECK-LABEL: func @row_wise
func.func @row_wise(%table: tensor<6x10x3xf32>, %cols: tensor<6x1xi32>, %lo: tensor<6x1xi32>, %hi: tensor<6x1xi32>) -> tensor<6x3xf32> {
  // CHECK-NOT:  stablehlo.iota
  // CHECK-NOT:  stablehlo.concatenate
  // CHECK:      "stablehlo.gather"(%arg0, %arg1)
  // CHECK-SAME:   dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>
  %iota = stablehlo.iota dim = 0 : tensor<6xi32>
  %b = stablehlo.broadcast_in_dim %iota, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
  %c = stablehlo.clamp %lo, %b, %hi : tensor<6x1xi32>
  %idx = stablehlo.concatenate %c, %cols, dim = 1 : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x2xi32>
  %r = "stablehlo.gather"(%table, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false
  } : (tensor<6x10x3xf32>, tensor<6x2xi32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

// An iota that doesn't count the rows (dimension 1) is not a batch index.
// CHECK-LABEL: func @not_row_wise
// CHECK:      stablehlo.iota dim = 1
// CHECK:      start_index_map = [0, 1]
// CHECK-NOT:  operand_batching_dims
func.func @not_row_wise(%table: tensor<6x10xf32>, %cols: tensor<6x1xi32>) -> tensor<6x1xf32> {
  %iota = stablehlo.iota dim = 1 : tensor<6x1xi32>
  %idx = stablehlo.concatenate %iota, %cols, dim = 1 : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x2xi32>
  %r = "stablehlo.gather"(%table, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 1>, indices_are_sorted = false
  } : (tensor<6x10xf32>, tensor<6x2xi32>) -> tensor<6x1xf32>
  return %r : tensor<6x1xf32>
}
