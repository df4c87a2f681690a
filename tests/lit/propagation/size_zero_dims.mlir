// Dimensions of size 0 are never sharded: a factor larger than one operand's
// dimension (concatenating an empty operand) leaves that operand alone.
// RUN: shardkit-opt %s -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func @concatenate_empty_operand
// CHECK-SAME:    %arg1: tensor<0xf32>) -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
// CHECK-NEXT:  stablehlo.concatenate %arg1, %arg0, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>}
func.func @concatenate_empty_operand(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<0xf32>) -> tensor<2xf32> {
  %0 = stablehlo.concatenate %arg1, %arg0, dim = 0 : (tensor<0xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
