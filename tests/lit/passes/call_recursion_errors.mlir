// A recursive call graph is valid IR, but the passes that follow calls can't
// take it: the call that closes the cycle is the error.
// RUN: shardkit-opt %s -sdy-flatten-call-graph -verify-diagnostics
// RUN: shardkit-opt %s -sdy-import-func-calls -verify-diagnostics
// RUN: shardkit-opt %s -sdy-pre-order-funcs -verify-diagnostics
// RUN: shardkit-opt %s -sdy-import-pipeline -verify-diagnostics
// RUN: shardkit-opt %s -sdy-propagation-pipeline=dedup-functions-fully=true -verify-diagnostics
// RUN: not shardkit-opt %s -sdy-import-pipeline 2>&1 | FileCheck %s

// CHECK: call_recursion_errors.mlir:[[# @LINE + 11]]:3: error: 'func.call' op recursive call graph: @ping -> @pong -> @ping
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @ping(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @ping(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @pong(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @pong(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{recursive call graph: @ping -> @pong -> @ping}}
  %0 = call @ping(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
