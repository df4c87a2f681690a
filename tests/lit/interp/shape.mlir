// Ops that rearrange elements: iota, reshape, broadcast_in_dim, transpose,
// slice, dynamic_slice (start indices clamped), dynamic_update_slice,
// concatenate, pad (interior and negative), reverse. The last chunk is the
// twin whose wrong expectations must be reported.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const %i, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %f = stablehlo.iota dim = 0 : tensor<2x3xf32>
  check.expect_eq_const %f, dense<[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %c = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = stablehlo.reshape %c : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %t = stablehlo.transpose %c, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
  %v = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  %b = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[7, 7, 7], [8, 8, 8]]> : tensor<2x3xi32>
  %s = stablehlo.slice %c [0:2, 0:3:2] : (tensor<2x3xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %s, dense<[[1, 3], [4, 6]]> : tensor<2x2xi32>
  %g = "stablehlo.slice"(%c) {start_indices = array<i64: 1, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xi32>) -> tensor<1x2xi32>
  check.expect_eq_const %g, dense<[[5, 6]]> : tensor<1x2xi32>
  %k = stablehlo.constant dense<1> : tensor<i32>
  %big = stablehlo.constant dense<5> : tensor<i32>
  %d = stablehlo.dynamic_slice %c, %k, %big, sizes = [1, 2] : (tensor<2x3xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
  check.expect_eq_const %d, dense<[[5, 6]]> : tensor<1x2xi32>
  %u = stablehlo.constant dense<[[0, 0]]> : tensor<1x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %dus = stablehlo.dynamic_update_slice %c, %u, %z, %big : (tensor<2x3xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const %dus, dense<[[1, 0, 0], [4, 5, 6]]> : tensor<2x3xi32>
  %cat = stablehlo.concatenate %c, %c, dim = 0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  check.expect_eq_const %cat, dense<[[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]> : tensor<4x3xi32>
  %rev = stablehlo.reverse %c, dims = [1] : tensor<2x3xi32>
  check.expect_eq_const %rev, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi32>
  return
}

// -----

func.func @main() {
  %c = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.pad %c, %z, low = [1], high = [0], interior = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<8xi32>
  check.expect_eq_const %p, dense<[0, 1, 0, 2, 0, 3, 0, 4]> : tensor<8xi32>
  %n = stablehlo.pad %c, %z, low = [-1], high = [2], interior = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const %n, dense<[2, 3, 4, 0, 0]> : tensor<5xi32>
  %m = stablehlo.pad %c, %z, low = [-2], high = [-1], interior = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %m, dense<[2, 0, 3, 0]> : tensor<4xi32>
  return
}

// -----

func.func @main() {
  %c = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.pad %c, %z, low = [1], high = [0], interior = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<8xi32>
  // Padding placed after the elements instead of between them.
  // CHECK: shape.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 0 (actual) vs 1 (expected) at index [0]
  check.expect_eq_const %p, dense<[1, 2, 3, 4, 0, 0, 0, 0]> : tensor<8xi32>
  %k = stablehlo.constant dense<1> : tensor<i32>
  %big = stablehlo.constant dense<5> : tensor<i32>
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %d = stablehlo.dynamic_slice %m, %k, %big, sizes = [1, 2] : (tensor<2x3xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
  // Without clamping the start index.
  // CHECK: shape.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 5 (actual) vs 6 (expected) at index [0, 0]
  check.expect_eq_const %d, dense<[[6, 0]]> : tensor<1x2xi32>
  return
}
