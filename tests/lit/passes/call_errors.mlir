// RUN: shardkit-opt %s -split-input-file -verify-diagnostics
// RUN: not shardkit-opt %s 2>&1 | FileCheck %s

// Calls are checked against their callee when the module is read; the tool
// prints the errors and exits 1.
// CHECK: call_errors.mlir:[[# @LINE + 3]]:3: error: 'func.call' op 'missing' does not reference a valid function
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op 'missing' does not reference a valid function}}
  %0 = call @missing(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'tensor<4xf32>', but provided 'tensor<8xf32>' for operand number 0}}
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op result type mismatch at index 0}}
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xi32> {
  %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
