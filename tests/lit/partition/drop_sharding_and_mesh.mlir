// -sdy-drop-sharding-and-mesh, the last step of the partitioner: the
// programs each device runs carry no sharding and no mesh.
// RUN: shardkit-opt %s -sdy-drop-sharding-and-mesh | FileCheck %s

// Every sharding and every mesh goes.
// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func @partitioned
// CHECK-SAME: (%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %0 = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK-NOT: sdy.
sdy.mesh @m = <["x"=2]>
sdy.mesh @unused = <["y"=4]>
func.func @partitioned(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
