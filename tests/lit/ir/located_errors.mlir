// RUN: not shardkit-opt %s -split-input-file 2>&1 >/dev/null | FileCheck %s
// RUN: not shardkit-opt %s -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OUT

// Diagnostics are `FILE:LINE:COL: error: MESSAGE`, with the line in the
// whole file (not in the chunk) and the column of the offending token (parse
// errors) or of the op (verifier errors). Chunks without errors still print, and the
// chunks are joined by `// -----`.

// CHECK: located_errors.mlir:[[# @LINE + 2]]:22: error: use of undeclared SSA value '%nope'
func.func @parse_error(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %nope : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// OUT: module {
// OUT-NEXT: func.func @fine
func.func @fine(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @verifier_error(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: located_errors.mlir:[[# @LINE + 1]]:3: error: 'sdy.reshard' op unknown axis name: "y"
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: located_errors.mlir:[[# @LINE + 2]]:3: error: 'func.return' op has 0 operands, but enclosing function (@two_errors) returns 1
func.func @two_errors(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return
}
// CHECK: located_errors.mlir:[[# @LINE + 1]]:1: error: 'func.func' op arg 0 - unknown mesh: @missing
func.func @second(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@missing, [{}]>}) {
  return
}

// -----
// OUT-NOT: func.func

// A type error inside a dense literal points into the literal.
// CHECK: located_errors.mlir:[[# @LINE + 1]]:29: error: invalid dense literal: expected element value, got 'x'
module attributes {a = dense<[1, x]> : tensor<2xi32>} {}
