// -sdy-convert-global-to-local on gather and scatter: indices into a sharded
// dim become local, a gather masks out what other devices hold, and a
// scatter whose updates are split over the devices starts from the
// reduction's identity on all but one device of each group.
// Mesh @m numbers device (x, y) as 3x + y.
// RUN: shardkit-opt %s -sdy-convert-global-to-local | FileCheck %s

sdy.mesh @m = <["x"=2, "y"=3]>

// Rows 2y..2y+1 live on device y: indices are clamped to the global range,
// shifted by 2y, and masked to [2y, 2y + 1].
// CHECK-LABEL: func.func @gather_rows
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<5x1xi32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<5> : tensor<5x1xi32>
// CHECK-NEXT: %0 = stablehlo.clamp %c, %arg1, %c_0 : tensor<5x1xi32>
// CHECK:      %c_1 = stablehlo.constant dense<[0, 2, 4, 0, 2, 4]> : tensor<6xi64>
// CHECK:      %5 = stablehlo.convert %4 : (tensor<i64>) -> tensor<i32>
// CHECK-NEXT: %c_2 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %6 = stablehlo.add %5, %c_2 : tensor<i32>
// CHECK-NEXT: %7 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
// CHECK-NEXT: %8 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
// CHECK-NEXT: %9 = stablehlo.subtract %0, %7 : tensor<5x1xi32>
// CHECK-NEXT: %10 = stablehlo.compare  GE, %0, %7 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
// CHECK-NEXT: %11 = stablehlo.compare  LE, %0, %8 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
// CHECK-NEXT: %12 = stablehlo.and %10, %11 : tensor<5x1xi1>
// CHECK-NEXT: %13 = "stablehlo.gather"(%arg0, %9) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<2x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: %14 = stablehlo.reduce(%12 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<5x1xi1>, tensor<i1>) -> tensor<5xi1>
// CHECK-NEXT: %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<5xi1>) -> tensor<5x4xi1>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<5x4xf32>
// CHECK-NEXT: %16 = stablehlo.select %15, %13, %cst : tensor<5x4xi1>, tensor<5x4xf32>
// CHECK-NEXT: %17 = "stablehlo.all_reduce"(%16)
func.func @gather_rows(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}, %arg1: tensor<5x1xi32>) -> tensor<5x4xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 4>
  } : (tensor<6x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@m, [{}, {}]> : tensor<5x4xf32>
  return %1 : tensor<5x4xf32>
}

// Scattering into rows sharded by y: the indices are shifted, not clamped
// (an index off this device's rows stays off them); the scatter keeps its
// body and its sharding, its two flags written out.
// CHECK-LABEL: func.func @scatter_indexed
// CHECK:      %c = stablehlo.constant dense<[0, 2, 4, 0, 2, 4]> : tensor<6xi64>
// CHECK:      %4 = stablehlo.convert %3 : tensor<i64>
// CHECK-NEXT: %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i64>) -> tensor<2x1xi64>
// CHECK-NEXT: %6 = stablehlo.subtract %arg1, %5 : tensor<2x1xi64>
// CHECK-NEXT: %7 = "stablehlo.scatter"(%arg0, %6, %arg2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT:   stablehlo.return %arg4 : tensor<f32>
// CHECK-NEXT: }) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}]>]>} : (tensor<2xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<2xf32>
func.func @scatter_indexed(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}, %arg1: tensor<2x1xi64>, %arg2: tensor<2xf32>)
    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    indices_are_sorted = true,
    sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}]>]>
  } : (tensor<6xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// Updates split over x: devices with x = 0 start from the operand, the others
// from the lowest f32, and the all_reduce takes the maximum.
// CHECK-LABEL: func.func @scatter_max_split_updates
// CHECK-NEXT: %cst = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[true, true, true, false, false, false]> : tensor<6xi1>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<6xi1>, tensor<i64>) -> tensor<1xi1>
// CHECK-NEXT: %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<1xi1>) -> tensor<3xi1>
// CHECK-NEXT: %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT: %5 = stablehlo.select %3, %arg0, %4 : tensor<3xi1>, tensor<3xf32>
// CHECK-NEXT: %6 = "stablehlo.scatter"(%5, %arg1, %arg2)
// CHECK:      %7 = "stablehlo.all_reduce"(%6) {{.*}} replica_groups = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]> : tensor<3x2xi64>
func.func @scatter_max_split_updates(%arg0: tensor<3xf32>, %arg1: tensor<4x1xi64> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg2: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<3xf32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %b, %a : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<3xf32>
  %1 = sdy.all_reduce max {"x"} %0 out_sharding=<@m, [{}]> : tensor<3xf32>
  return %1 : tensor<3xf32>
}
