module {
  func.func @hlo(%arg0: tensor<4x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<i32>, %arg3: tensor<4x8xi32>) -> tensor<4x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %0 = stablehlo.add %arg0, %arg0 : tensor<4x8xf32>
    %1 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x8xf32>) -> tensor<32xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %4 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %5 = stablehlo.slice %4 [0:4, 0:8:2] : (tensor<8x8xf32>) -> tensor<4x4xf32>
    %6 = stablehlo.pad %5, %cst, low = [0, 0], high = [0, 4], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x8xf32>
    %7 = stablehlo.dynamic_slice %0, %arg2, %arg2, sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
    %8 = stablehlo.dot %0, %arg1 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %9 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %10 = stablehlo.compare  GT, %0, %6,  FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %11 = stablehlo.select %10, %0, %6 : tensor<4x8xi1>, tensor<4x8xf32>
    %12 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.reduce(%0 init: %cst) across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
     reducer(%arg4: tensor<f32>, %arg5: tensor<f32>)  {
      %20 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      %21 = stablehlo.abs %20 : tensor<f32>
      stablehlo.return %21 : tensor<f32>
    }
    %14 = stablehlo.iota dim = 0 : tensor<4x8xi32>
    %15 = stablehlo.convert %3 : (tensor<4x8xi32>) -> tensor<4x8xf32>
    %16 = stablehlo.custom_call @foo(%15) {backend_config = "", has_side_effect = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %17:2 = stablehlo.optimization_barrier %16, %arg3 : tensor<4x8xf32>, tensor<4x8xi32>
    %18 = "stablehlo.gather"(%arg0, %arg3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
    %19 = "stablehlo.all_reduce"(%18) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %20 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %20 : tensor<f32>
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %19 : tensor<4x8xf32>
  }
}
