// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-add-data-flow-edges | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// Edges are added inside regions too, and running the pass again adds none.
// A manual computation's argument edge drops the manual axes of its
// in_sharding (also a manual replicated axis; "b" is not manual and stays);
// its result edge keeps the whole out_sharding.
// CHECK-LABEL: func @nested
func.func @nested(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%arg0, %arg1)
  // CHECK-NEXT:   %[[ARG_EDGE:.*]] = sdy.data_flow_edge %arg2 sharding=<@mesh, [{?}], unreduced={"b"}> : tensor<4xf32>
  // CHECK-NEXT:   %[[I_EDGE:.*]] = sdy.data_flow_edge %arg3 sharding=<@mesh, []> : tensor<i32>
  // CHECK-NEXT:   %[[WHILE:.*]]:2 = stablehlo.while(%iterArg = %[[ARG_EDGE]], %iterArg_0 = %[[I_EDGE]])
  // CHECK:        stablehlo.negate %iterArg
  // CHECK-NEXT:   stablehlo.return
  // CHECK-NEXT:   }
  // CHECK-NEXT:   %[[W_EDGE_0:.*]] = sdy.data_flow_edge %[[WHILE]]#0 : tensor<4xf32>
  // CHECK-NEXT:   %[[W_EDGE_1:.*]] = sdy.data_flow_edge %[[WHILE]]#1 : tensor<i32>
  // CHECK-NEXT:   sdy.return %[[W_EDGE_0]]
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[MC_EDGE:.*]] = sdy.data_flow_edge %[[MC]] sharding=<@mesh, [{"a", ?}], replicated={"c"}> : tensor<8xf32>
  // CHECK-NEXT: return %[[MC_EDGE]]
  // CHECK-NOT:  sdy.data_flow_edge
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", ?}], replicated={"c"}, unreduced={"b"}>, <@mesh, []>] out_shardings=[<@mesh, [{"a", ?}], replicated={"c"}>] manual_axes={"a", "c"} (%arg2: tensor<4xf32>, %arg3: tensor<i32>) {
    %1:2 = stablehlo.while(%iterArg = %arg2, %iterArg_0 = %arg3) : tensor<4xf32>, tensor<i32>
      cond {
      %2 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = stablehlo.negate %iterArg : tensor<4xf32>
      stablehlo.return %2, %iterArg_0 : tensor<4xf32>, tensor<i32>
    }
    sdy.return %1#0 : tensor<4xf32>
  } : (tensor<8xf32>, tensor<i32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
