// Ops with a body: reduce (one and two inputs), reduce_window (padding,
// strides, dilations), select_and_scatter, sort (with a comparator over two
// inputs). The last chunk is the twin whose wrong expectations must be
// reported.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %c = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%c init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[6, 15]> : tensor<2xi32>
  %m = stablehlo.constant dense<-100> : tensor<i32>
  %r2 = stablehlo.reduce(%c init: %m) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %r2, dense<6> : tensor<i32>
  // Argmax of each row: the values and their indices reduced together.
  %v = stablehlo.constant dense<[[1, 9, 3], [7, 5, 7]]> : tensor<2x3xi32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %neg = stablehlo.constant dense<-1> : tensor<i32>
  %am:2 = stablehlo.reduce(%v init: %m), (%i init: %neg) across dimensions = [1] : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<2xi32>, tensor<2xi32>)
   reducer(%a: tensor<i32>, %b: tensor<i32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %b, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %mv = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<i32>
    %mi = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %mv, %mi : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %am#0, dense<[9, 7]> : tensor<2xi32>
  check.expect_eq_const %am#1, dense<[1, 0]> : tensor<2xi32>
  return
}

// -----

func.func @main() {
  %c = stablehlo.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  // Windows of 2 with stride 2 over [0, 1, 2, 3, 4, 5, 0] (padding 1, 1).
  %w = "stablehlo.reduce_window"(%c, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<5xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %w, dense<[1, 5, 9]> : tensor<3xi32>
  // Base dilation 2: [1, _, 2, _, 3, _, 4, _, 5]; windows of 3.
  %d = "stablehlo.reduce_window"(%c, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 3>, base_dilations = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<5xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %d, dense<[3, 5, 7, 9]> : tensor<4xi32>
  // Window dilation 2: elements i and i + 2.
  %e = "stablehlo.reduce_window"(%c, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_dilations = array<i64: 2>} : (tensor<5xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %e, dense<[4, 6, 8]> : tensor<3xi32>
  return
}

// -----

func.func @main() {
  %op = stablehlo.constant dense<[[1, 5], [3, 2], [4, 0], [2, 6]]> : tensor<4x2xi32>
  %src = stablehlo.constant dense<[[10], [20]]> : tensor<2x1xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%op, %src, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x2xi32>, tensor<2x1xi32>, tensor<i32>) -> tensor<4x2xi32>
  check.expect_eq_const %r, dense<[[0, 10], [0, 0], [0, 0], [0, 20]]> : tensor<4x2xi32>
  return
}

// -----

func.func @main() {
  %k = stablehlo.constant dense<[[3, 1, 2], [1, 1, 0]]> : tensor<2x3xi32>
  %v = stablehlo.constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32>
  %s:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
  check.expect_eq_const %s#0, dense<[[1, 2, 3], [0, 1, 1]]> : tensor<2x3xi32>
  // Stable: the two keys 1 of the second row keep their order.
  check.expect_eq_const %s#1, dense<[[20, 30, 10], [60, 40, 50]]> : tensor<2x3xi32>
  return
}

// -----

func.func @main() {
  %c = stablehlo.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %w = "stablehlo.reduce_window"(%c, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<5xi32>, tensor<i32>) -> tensor<3xi32>
  // The windows without the low padding.
  // CHECK: reduce.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 1 (actual) vs 3 (expected) at index [0]
  check.expect_eq_const %w, dense<[3, 7, 5]> : tensor<3xi32>
  %k = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>
  %s = "stablehlo.sort"(%k) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: reduce.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 3 (actual) vs 1 (expected) at index [0]
  check.expect_eq_const %s, dense<[1, 2, 3]> : tensor<3xi32>
  return
}
