// A dimension of size 0 is a dimension like any other: 0 is divisible by
// every sharded size, so axes propagate onto it and through it.
// RUN: shardkit-opt %s -split-input-file -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=2]>

// The concatenated dimension's factor has size 2; the empty operand takes
// its axes like the other operand.
// CHECK-LABEL: func @concatenate_empty_operand
// CHECK-SAME:    %arg1: tensor<0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
// CHECK-NEXT:  stablehlo.concatenate %arg1, %arg0, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>}
func.func @concatenate_empty_operand(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<0xf32>) -> tensor<2xf32> {
  %0 = stablehlo.concatenate %arg1, %arg0, dim = 0 : (tensor<0xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// A size-0 dimension sharded by the user passes its axes on (both axes: 0
// is divisible by 8), forward and backward.
// CHECK-LABEL: func @zero_sized_factor
// CHECK-SAME:    %arg1: tensor<0x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", ?}, {?}]>}
// CHECK-SAME:    -> (tensor<0x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", ?}, {?}]>})
// CHECK-NEXT:  stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>}
func.func @zero_sized_factor(%arg0: tensor<0x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, %arg1: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<0x8xf32>
  return %0 : tensor<0x8xf32>
}
