module {
  func.func @more(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: !stablehlo.token, %arg5: tensor<4xcomplex<f32>>, %arg6: tensor<2xui64>, %arg7: tensor<4x4xf32>, %arg8: tensor<1x8x4xf32>, %arg9: tensor<3x4x4xf32>, %arg10: tensor<1xi64>) -> tensor<4xf32> {
    %0 = stablehlo.clamp %arg3, %arg0, %arg3 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.clamp %arg0, %0, %arg0 : tensor<4xf32>
    %2 = stablehlo.bitcast_convert %1 : (tensor<4xf32>) -> tensor<4xi32>
    %3 = stablehlo.dynamic_update_slice %1, %arg1, %arg2 : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
    %4 = stablehlo.reverse %3, dims = [0] : tensor<4xf32>
    %5 = stablehlo.broadcast %4, sizes = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
    %6 = stablehlo.get_dimension_size %5, dim = 1 : (tensor<2x4xf32>) -> tensor<i32>
    %7 = stablehlo.after_all %arg4, %arg4 : !stablehlo.token
    %8 = stablehlo.create_token : !stablehlo.token
    %9 = stablehlo.partition_id : tensor<ui32>
    %10 = stablehlo.replica_id : tensor<ui32>
    %11 = stablehlo.fft %arg5, type =  FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %12 = stablehlo.rng %arg3, %arg3, %arg10, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
    %output_state, %output = stablehlo.rng_bit_generator %arg6, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %13 = stablehlo.cholesky %arg7, lower = true : tensor<4x4xf32>
    %14 = stablehlo.convolution(%arg8, %arg9) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x4xf32>, tensor<3x4x4xf32>) -> tensor<1x6x4xf32>
    %15 = stablehlo.tuple %4, %arg2 : tuple<tensor<4xf32>, tensor<i32>>
    %16 = stablehlo.get_tuple_element %15[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %17 = stablehlo.sine %16 : tensor<4xf32>
    %18 = stablehlo.is_finite %17 : (tensor<4xf32>) -> tensor<4xi1>
    return %12 : tensor<4xf32>
  }
}
