// dot, dot_general (batching and contracting dimensions), convolution
// (padding, strides, dilations, feature and batch groups) and fft. The last
// chunk is the twin whose wrong expectations must be reported.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %d = stablehlo.dot %a, %b : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %d, dense<[[19, 22], [43, 50]]> : tensor<2x2xi32>
  %x = stablehlo.constant dense<[[[1, 2], [3, 4]], [[1, 0], [0, 1]]]> : tensor<2x2x2xi32>
  %y = stablehlo.constant dense<[[[1, 1], [1, 1]], [[2, 3], [4, 5]]]> : tensor<2x2x2xi32>
  %g = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x2xi32>, tensor<2x2x2xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %g, dense<[[[3, 3], [7, 7]], [[2, 3], [4, 5]]]> : tensor<2x2x2xi32>
  %f = stablehlo.constant dense<[[1.5, 2.0, -1.0]]> : tensor<1x3xf32>
  %h = stablehlo.constant dense<[[2.0], [0.5], [4.0]]> : tensor<3x1xf32>
  %fh = stablehlo.dot_general %f, %h, contracting_dims = [1] x [0] : (tensor<1x3xf32>, tensor<3x1xf32>) -> tensor<1x1xf32>
  check.expect_eq_const %fh, dense<[[0.0]]> : tensor<1x1xf32>
  return
}

// -----

// A 1-d convolution: input [batch=1, width=5, feature=1], kernel
// [width=2, in=1, out=1], stride 2, padding 1 on each side.
func.func @main() {
  %in = stablehlo.constant dense<[[[1], [2], [3], [4], [5]]]> : tensor<1x5x1xi32>
  %k = stablehlo.constant dense<[[[1]], [[10]]]> : tensor<2x1x1xi32>
  %c = stablehlo.convolution(%in, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xi32>, tensor<2x1x1xi32>) -> tensor<1x3x1xi32>
  check.expect_eq_const %c, dense<[[[10], [32], [54]]]> : tensor<1x3x1xi32>
  // Kernel dilation 2 and input dilation 2.
  %d = stablehlo.convolution(%in, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xi32>, tensor<2x1x1xi32>) -> tensor<1x3x1xi32>
  check.expect_eq_const %d, dense<[[[31], [42], [53]]]> : tensor<1x3x1xi32>
  %e = stablehlo.convolution(%in, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xi32>, tensor<2x1x1xi32>) -> tensor<1x8x1xi32>
  check.expect_eq_const %e, dense<[[[1], [20], [2], [30], [3], [40], [4], [50]]]> : tensor<1x8x1xi32>
  return
}

// -----

// Feature groups: two input features, two groups, each output feature sees
// its own input feature. Batch groups: the two batches feed one output
// feature each.
func.func @main() {
  %in = stablehlo.constant dense<[[[1, 100], [2, 200]]]> : tensor<1x2x2xi32>
  %k = stablehlo.constant dense<[[[1, 2]]]> : tensor<1x1x2xi32>
  %c = stablehlo.convolution(%in, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x2x2xi32>, tensor<1x1x2xi32>) -> tensor<1x2x2xi32>
  check.expect_eq_const %c, dense<[[[1, 200], [2, 400]]]> : tensor<1x2x2xi32>
  %b = stablehlo.constant dense<[[[1], [2]], [[10], [20]]]> : tensor<2x2x1xi32>
  %kb = stablehlo.constant dense<[[[1, 3]]]> : tensor<1x1x2xi32>
  %cb = stablehlo.convolution(%b, %kb) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x2x1xi32>, tensor<1x1x2xi32>) -> tensor<1x2x2xi32>
  check.expect_eq_const %cb, dense<[[[1, 30], [2, 60]]]> : tensor<1x2x2xi32>
  return
}

// -----

func.func @main() {
  %x = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f64>>
  %f = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %f, dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)]> : tensor<4xcomplex<f64>>
  %i = stablehlo.fft %f, type = IFFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %i, dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f64>>
  %r = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %rf = stablehlo.fft %r, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %rf, dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0)]> : tensor<3xcomplex<f32>>
  %ir = stablehlo.fft %rf, type = IRFFT, length = [4] : (tensor<3xcomplex<f32>>) -> tensor<4xf32>
  check.expect_almost_eq_const %ir, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %d = stablehlo.dot %a, %b : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  // The product with b transposed.
  // CHECK: contraction.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 19 (actual) vs 17 (expected) at index [0, 0]
  check.expect_eq_const %d, dense<[[17, 23], [39, 53]]> : tensor<2x2xi32>
  %in = stablehlo.constant dense<[[[1, 100], [2, 200]]]> : tensor<1x2x2xi32>
  %k = stablehlo.constant dense<[[[1, 2]]]> : tensor<1x1x2xi32>
  %c = stablehlo.convolution(%in, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x2x2xi32>, tensor<1x1x2xi32>) -> tensor<1x2x2xi32>
  // Every output feature summing both input features.
  // CHECK: contraction.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 1 (actual) vs 101 (expected) at index [0, 0, 0]
  check.expect_eq_const %c, dense<[[[101, 202], [202, 404]]]> : tensor<1x2x2xi32>
  return
}
