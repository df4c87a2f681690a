// Conservative propagation never splits a mesh axis into sub-axes and never
// propagates along dimensions whose sharding would need data movement.
// RUN: shardkit-opt %s -split-input-file -sdy-basic-propagate=conservative-propagation=true | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-basic-propagate | FileCheck %s --check-prefix=DEFAULT

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Splitting 8 into 2x4 would need "x":(1)2 and "x":(2)2.
// CHECK-LABEL: func @reshape_needs_sub_axes
// CHECK-NEXT:  stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>
// DEFAULT-LABEL: func @reshape_needs_sub_axes
// DEFAULT-NEXT:  stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2, ?}, {"x":(2)2, ?}]>]>}
func.func @reshape_needs_sub_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<2x4xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Whole axes still propagate.
// CHECK-LABEL: func @reshape_whole_axes
// CHECK-NEXT:  stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
func.func @reshape_whole_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> tensor<4x2xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// The concatenated dimension doesn't propagate; the other one does.
// CHECK-LABEL: func @concatenate_dim
// CHECK-NEXT:  stablehlo.concatenate %arg0, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// DEFAULT-LABEL: func @concatenate_dim
// DEFAULT-NEXT:  stablehlo.concatenate %arg0, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y", ?}]>]>}
func.func @concatenate_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Data-flow edges are identities and are not affected by the option: the
// sub-axis reaches the edge, but not the user of the edge.
// CHECK-LABEL: func @edge_not_conservative
// CHECK:       %[[E:.*]] = sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"x":(1)2, ?}]>
// CHECK-NEXT:  stablehlo.abs %[[E]] : tensor<8xf32>
func.func @edge_not_conservative(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}]>}) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = stablehlo.abs %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
