// RUN: not shardkit-opt %s -verify-diagnostics 2>&1 >/dev/null | FileCheck %s

// -verify-diagnostics reports an annotation no error matched at the
// annotation's own line and column, and an error nobody expected at the
// error's line and column.

sdy.mesh @mesh = <["x"=2]>

// CHECK: verify_diagnostics_mismatch.mlir:[[# @LINE + 1]]:4: error: expected error "no such error" was not produced
// expected-error@+1 {{no such error}}
func.func @fine(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// CHECK-NEXT: verify_diagnostics_mismatch.mlir:[[# @LINE + 2]]:3: error: unexpected error: 'sdy.propagation_barrier' op cannot specify `BOTH`
func.func @bad(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<4xf32>
  return %0 : tensor<4xf32>
}
