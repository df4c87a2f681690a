// RUN: shardkit-opt %s -sdy-populate-op-sharding-rules | FileCheck %s

// StableHLO's binary elementwise ops are read in their pretty form, printed
// back in it, and given the elementwise rule (one factor per dimension, the
// same for every operand and the result). atan2 is one of them.

// CHECK-LABEL: func @atan2
func.func @atan2(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: stablehlo.atan2 %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>} : tensor<8x4xf32>
  %0 = stablehlo.atan2 %arg0, %arg1 : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func @atan2_generic
func.func @atan2_generic(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-NEXT: stablehlo.atan2 %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=2}>} : tensor<2xf32>
  %0 = "stablehlo.atan2"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
