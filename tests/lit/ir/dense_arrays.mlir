// RUN: shardkit-opt %s -split-input-file | FileCheck %s
// RUN: shardkit-opt %s -split-input-file | shardkit-opt - -split-input-file | FileCheck %s
// RUN: shardkit-opt %s -split-input-file --mlir-print-op-generic | shardkit-opt - -split-input-file | FileCheck %s

// Dense array elements keep MLIR's values: a signless element is printed
// sign-extended from its width, an i1 as true or false.

// CHECK-LABEL: module attributes
// CHECK-SAME: a = array<i8: -1, -128, 127>
// CHECK-SAME: b = array<i1: true, false, true>
// CHECK-SAME: c = array<ui8: 255>
// CHECK-SAME: d = array<si16: -32768>
// CHECK-SAME: e = array<i32>
module attributes {a = array<i8: 255, -128, 127>, b = array<i1: -1, 0, 1>, c = array<ui8: 255>, d = array<si16: -32768>, e = array<i32>} {
}

// -----

// A pretty list (`across dimensions = [1]`) reads back as array<i64>: an op
// whose list is any other array keeps the generic form, so it reads back the
// same.

// CHECK-LABEL: func.func @reduce_i1_dimensions
// CHECK: "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i1: true>}>
// CHECK-LABEL: func.func @reduce_i32_dimensions
// CHECK: "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i32: 1>}>
// CHECK-LABEL: func.func @reverse_i32_dimensions
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i32: 0>}>
// CHECK-LABEL: func.func @reverse_i64_dimensions
// CHECK: stablehlo.reverse %arg0, dims = [0]
func.func @reduce_i1_dimensions(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i1: true>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @reduce_i32_dimensions(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i32: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @reverse_i32_dimensions(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.reverse"(%arg0) <{dimensions = array<i32: 0>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @reverse_i64_dimensions(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
