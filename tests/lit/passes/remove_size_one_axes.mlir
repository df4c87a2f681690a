// RUN: shardkit-opt %s -sdy-remove-size-one-axes | FileCheck %s

// Axes of size 1 shard nothing: they leave every sharding (the meshes keep
// them, manual axes too), and sub-axes one of them kept apart merge.
// CHECK: sdy.mesh @m = <["p"=1, "q"=4, "r"=1]>
sdy.mesh @m = <["p"=1, "q"=4, "r"=1]>

// CHECK-LABEL: func @f
// CHECK-SAME:    %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"q"}, {}]>}
// CHECK-SAME:    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {?}p1], unreduced={"q"}>})
func.func @f(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"q":(1)2, "p", "q":(2)2}, {"r"}p0]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"r", ?}, {?}p1], unreduced={"p", "q"}>}) {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME:   in_shardings=[<@m, [{}, {}]>]
  // CHECK-SAME:   manual_axes={"p", "r"}
  // CHECK-NEXT:   stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"q"}, {}]>]>}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"p"}, {"r"}]>] out_shardings=[<@m, [{"p"}, {}]>] manual_axes={"p", "r"} (%arg1: tensor<4x4xf32>) {
    %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"q"}, {}]>]>} : tensor<4x4xf32>
    sdy.return %1 : tensor<4x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
