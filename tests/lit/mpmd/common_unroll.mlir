// -mpmd-unroll-for-loops: copies of the body chained through the carried
// values, an index constant per iteration, counters across loops.
// RUN: not shardkit-opt %s -split-input-file -mpmd-unroll-for-loops | FileCheck %s
// RUN: not shardkit-opt %s -split-input-file -mpmd-unroll-for-loops 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @two_loops
// CHECK-NEXT:    %[[I0:.*]] = stablehlo.constant {unroll_counter = 0 : ui32} dense<0> : tensor<ui32>
// CHECK-NEXT:    %[[M0:.*]] = stablehlo.multiply %arg0, %arg0 {unroll_counter = 0 : ui32}
// CHECK-NEXT:    %[[I1:.*]] = stablehlo.constant {unroll_counter = 1 : ui32} dense<1> : tensor<ui32>
// CHECK-NEXT:    %[[M1:.*]] = stablehlo.multiply %[[M0]], %[[M0]] {unroll_counter = 1 : ui32}
// CHECK-NEXT:    %[[I2:.*]] = stablehlo.constant {unroll_counter = 2 : ui32} dense<0> : tensor<ui32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[M1]] {unroll_counter = 2 : ui32}
// CHECK-NEXT:    return %[[N]]
func.func @two_loops(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 2 : ui32}
      (%x: tensor<4xf32>, %i: tensor<ui32>) {
    %m = stablehlo.multiply %x, %x : tensor<4xf32>
    mpmd.return %m : tensor<4xf32>
  } : tensor<4xf32>
  %1 = mpmd.for (%0) {iterations = 1 : ui32, unroll_factor = 1 : ui32}
      (%x: tensor<4xf32>, %i: tensor<ui32>) {
    %n = stablehlo.negate %x : tensor<4xf32>
    mpmd.return %n : tensor<4xf32>
  } : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// ERR: common_unroll.mlir:[[# @LINE + 2]]:3: error: The unroll factor is required to be the same as the number of iterations.
func.func @partial(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.for (%arg0) {iterations = 4 : ui32, unroll_factor = 2 : ui32}
      (%x: tensor<4xf32>, %i: tensor<ui32>) {
    mpmd.return %x : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}
