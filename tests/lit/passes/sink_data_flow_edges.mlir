// RUN: shardkit-opt %s -sdy-sink-data-flow-edges | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The edge's sharding goes to the while; the result without an edge gets a
// fully open sharding on the same mesh, and the edge is replaced by its input.
// CHECK-LABEL: func @while_result
func.func @while_result(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[WHILE:.*]]:2 = stablehlo.while
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>, <@mesh, []>]>
  // CHECK:      %[[ABS:.*]] = stablehlo.abs %[[WHILE]]#0
  // CHECK-NEXT: return %[[ABS]]
  // CHECK-NOT:  sdy.data_flow_edge
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x4xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.negate %iterArg : tensor<8x4xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
  }
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"b", ?}, {?}]> : tensor<8x4xf32>
  %3 = stablehlo.abs %1 : tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}

// A manual computation's argument edge holds the sharding without the manual
// axes; sinking puts the manual axes back in front.
// CHECK-LABEL: func @manual_computation
func.func @manual_computation(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"a", "b", ?}, {?}]>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"a"}, {"b"}]>]
  // CHECK-NEXT:   %[[NEG:.*]] = stablehlo.negate %arg1
  // CHECK-NEXT:   sdy.return %[[NEG]]
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[MC]]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x4xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"b", ?}, {?}]> : tensor<4x4xf32>
    %2 = stablehlo.negate %1 : tensor<4x4xf32>
    sdy.return %2 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}, {"b"}]> : tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}

// A named computation without in_shardings gets them when an argument edge
// has a sharding; its result edge has none, so no out_shardings appear.
// CHECK-LABEL: func @named_computation
func.func @named_computation(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[NC:.*]] = sdy.named_computation<"f">(%arg0, %arg1) in_shardings=[<@mesh, [{?}]>, <@mesh, [{"a"}]>] (%arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
  // CHECK-NEXT:   %[[ADD:.*]] = stablehlo.add %arg2, %arg3
  // CHECK-NEXT:   sdy.return %[[ADD]]
  // CHECK-NEXT: } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // CHECK-NEXT: return %[[NC]]
  %0 = sdy.named_computation<"f">(%arg0, %arg1) (%arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
    %1 = sdy.data_flow_edge %arg2 : tensor<8xf32>
    %2 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    %3 = stablehlo.add %1, %2 : tensor<8xf32>
    sdy.return %3 : tensor<8xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %4 : tensor<8xf32>
}

// An existing sharding is replaced by the edges' (and by a fully open one for
// an owner without an edge).
// CHECK-LABEL: func @edge_sharding_wins
func.func @edge_sharding_wins(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: %[[B:.*]]:2 = stablehlo.optimization_barrier
  // CHECK-SAME:   {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b"}]>]>}
  // CHECK-NEXT: return %[[B]]#0, %[[B]]#1
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{"a"}]>]>} %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %1 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %0#0, %1 : tensor<8xf32>, tensor<8xf32>
}

// Without any edge sharding the op is left as it was.
// CHECK-LABEL: func @no_edge_sharding
func.func @no_edge_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[B:.*]] = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  // CHECK-NEXT: return %[[B]]
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
