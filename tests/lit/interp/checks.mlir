// The check ops: expect_eq (NaN is unequal to itself, -0 equals +0),
// expect_almost_eq (a tolerance), expect_close (units in the last place);
// pretty and generic forms. Each failure of the last chunk must be
// reported with both values.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %a = stablehlo.constant dense<[1.0, -0.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 0.0]> : tensor<2xf32>
  check.expect_eq %a, %b : tensor<2xf32>
  "check.expect_eq"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> ()
  %c = stablehlo.constant dense<[1.00001, 0.01]> : tensor<2xf32>
  check.expect_almost_eq %a, %c, tolerance = 1.000000e-01 : f64 : tensor<2xf32>
  check.expect_almost_eq %a, %c, tolerance = 0.1 : tensor<2xf32>
  check.expect_almost_eq_const %c, dense<[1.0, 0.01]> : tensor<2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %next = stablehlo.constant dense<1.00000012> : tensor<f32>
  check.expect_close %one, %next, max_ulp_difference = 1 : tensor<f32>, tensor<f32>
  return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  // CHECK: checks.mlir:[[@LINE+3]]:3: error: 'check.expect_eq' op Element values don't match: 0x7FC00000 (actual) vs 0x7FC00000 (expected) at index [1]
  // CHECK-NEXT: checks.mlir:[[@LINE+2]]:3: note: actual: dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>
  // CHECK-NEXT: checks.mlir:[[@LINE+1]]:3: note: expected: dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>
  check.expect_eq %a, %a : tensor<2xf32>
  %c = stablehlo.constant dense<[1.5, 2.0]> : tensor<2xf32>
  // CHECK: checks.mlir:[[@LINE+1]]:3: error: 'check.expect_almost_eq_const' op Element values don't match with tolerance 1.000000e-04: 1.500000e+00 (actual) vs 1.000000e+00 (expected) at index [0]
  check.expect_almost_eq_const %c, dense<[1.0, 2.0]> : tensor<2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %two_up = stablehlo.constant dense<1.00000024> : tensor<f32>
  // CHECK: checks.mlir:[[@LINE+1]]:3: error: 'check.expect_close' op Elements values don't match with respect to maximal ULP difference=1 limit: index=[], actual=1.000000e+00, expected=1.00000024, ULP difference=2
  check.expect_close %one, %two_up, max_ulp_difference = 1 : tensor<f32>, tensor<f32>
  return
}
