// RUN: shardkit-opt %s -sdy-manual-axes-cleanup | FileCheck %s

sdy.mesh @mesh = <["z"=2, "x"=4, "y"=2]>
sdy.mesh @empty = <[]>
sdy.mesh @same = <["z"=2, "x"=4, "y"=2]>

// Manual axes are sorted in mesh order (not by name), and each in/out
// sharding gets the manual axes it does not use as replicated axes, also in
// mesh order.
// CHECK-LABEL: func @sort_and_replicate
func.func @sort_and_replicate(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"x", ?}, {?}], replicated={"z", "y"}>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"x"}, {"y"}], replicated={"z"}>]
  // CHECK-SAME{LITERAL}: manual_axes={"z", "x", "y"}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x"}, {"y"}], replicated={"z"}>] manual_axes={"y", "x", "z"} (%arg1: tensor<2x4xf32>) {
    %1 = stablehlo.slice %arg1 [0:2, 0:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
    sdy.return %1 : tensor<2x2xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Only the unused part of a partly used manual axis is added; a token keeps
// its sharding; an unreduced manual axis counts as used.
// CHECK-LABEL: func @sub_axes_tokens_and_unreduced
func.func @sub_axes_tokens_and_unreduced(%arg0: tensor<8xf32>, %arg1: !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token) {
  // CHECK-NEXT: sdy.manual_computation(%arg0, %arg1)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"x":(1)2}], replicated={"z", "x":(2)2}>, <@mesh, []>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{}], replicated={"x"}, unreduced={"z"}>, <@mesh, []>]
  // CHECK-SAME{LITERAL}: manual_axes={"z", "x"}
  %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x":(1)2}]>, <@mesh, []>] out_shardings=[<@mesh, [{}], unreduced={"z"}>, <@mesh, []>] manual_axes={"x", "z"} (%arg2: tensor<4xf32>, %arg3: !stablehlo.token) {
    %1 = stablehlo.concatenate %arg2, %arg2, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    sdy.return %1, %arg3 : tensor<8xf32>, !stablehlo.token
  } : (tensor<8xf32>, !stablehlo.token) -> (tensor<8xf32>, !stablehlo.token)
  return %0#0, %0#1 : tensor<8xf32>, !stablehlo.token
}

// A sharding on the empty mesh that gains replicated axes moves to the mesh
// the other shardings use.
// CHECK-LABEL: func @empty_mesh_takes_common_mesh
func.func @empty_mesh_takes_common_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{}], replicated={"y"}>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"y"}]>]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@empty, [{}]>] out_shardings=[<@mesh, [{"y"}]>] manual_axes={"y"} (%arg1: tensor<8xf32>) {
    %1 = stablehlo.slice %arg1 [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Any sharding that changes is bound to the common mesh: here @mesh, the
// in_sharding's, for an out_sharding on another mesh with the same axes.
// CHECK-LABEL: func @changed_sharding_takes_common_mesh
func.func @changed_sharding_takes_common_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"z"}]>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{}], replicated={"z"}>]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"z"}]>] out_shardings=[<@same, [{}]>] manual_axes={"z"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.concatenate %arg1, %arg1, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Nothing to do when every sharding already uses every manual axis.
// CHECK-LABEL: func @already_clean
func.func @already_clean(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"z", ?}], replicated={"y"}>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"z", "y"}]>]
  // CHECK-SAME{LITERAL}: manual_axes={"z", "y"}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"z", ?}], replicated={"y"}>] out_shardings=[<@mesh, [{"z", "y"}]>] manual_axes={"z", "y"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.slice %arg1 [0:2] : (tensor<4xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
