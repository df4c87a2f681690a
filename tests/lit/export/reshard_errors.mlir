// Reshards that cannot be lowered, and a sharding that does not divide a
// manual computation's operand, are errors at their op and exit 1.
// RUN: shardkit-opt %s -split-input-file -sdy-reshard-to-collectives -verify-diagnostics
// RUN: not shardkit-opt %s -split-input-file -sdy-reshard-to-collectives 2>&1 >/dev/null | FileCheck %s

// CHECK: reshard_errors.mlir:[[# @LINE + 6]]:3: error: 'sdy.reshard' op cannot be lowered to collectives
sdy.mesh @mesh_x = <["x"=4]>
sdy.mesh @mesh_y = <["y"=4]>
func.func @different_meshes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_x, [{"x"}]>})
    -> tensor<8xf32> {
  // expected-error @+1 {{cannot be lowered to collectives}}
  %0 = sdy.reshard %arg0 <@mesh_y, [{"y"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: reshard_errors.mlir:[[# @LINE + 5]]:3: error: {{.*}}cannot change the reduction operator
sdy.mesh @mesh = <["x"=2]>
func.func @other_reduction(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"x"}>})
    -> tensor<8xf32> {
  // expected-error @+1 {{cannot change the reduction operator}}
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: reshard_errors.mlir:[[# @LINE + 4]]:3: error: {{.*}}not divisible
sdy.mesh @mesh = <["x"=4]>
func.func @non_divisible_manual(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
