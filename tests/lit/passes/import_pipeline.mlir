// RUN: shardkit-opt %s -sdy-import-pipeline | FileCheck %s

// The inlined mesh equals @mesh, so no new mesh appears; every mesh gets its
// stablehlo.mesh description.
// CHECK:     sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
// CHECK-NOT: sdy.mesh
sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @main
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // The constant is split between its two users (one inside the while).
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[C0]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
  // CHECK-NEXT: %[[WHILE:.*]]:2 = stablehlo.while(%iterArg = %[[ADD]], %iterArg_0 = %arg1)
  // CHECK:        stablehlo.multiply %iterArg, %[[C1]]
  // The while results get edges; the constraint on the first one is not
  // copied onto the edge but moved right after it, taking over its uses.
  // CHECK:      %[[EDGE_0:.*]] = sdy.data_flow_edge %[[WHILE]]#0 : tensor<8x8xf32>
  // CHECK-NEXT: %[[SC:.*]] = sdy.sharding_constraint %[[EDGE_0]] <@mesh, [{}, {"b"}]>
  // CHECK-NEXT: %[[EDGE_1:.*]] = sdy.data_flow_edge %[[WHILE]]#1 : tensor<i32>
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %[[SC]]
  // The unused manual axis "b" becomes replicated (after sorting the manual
  // axes), and the computation's argument and result get edges.
  // CHECK-NEXT: %[[MC:.*]] = sdy.manual_computation(%[[NEG]])
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"a", ?}, {?}], replicated={"b"}>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"a", ?}, {?}], replicated={"b"}>]
  // CHECK-SAME{LITERAL}: manual_axes={"a", "b"}
  // CHECK-NEXT:   %[[ARG_EDGE:.*]] = sdy.data_flow_edge %arg2 sharding=<@mesh, [{?}, {?}]>
  // CHECK-NEXT:   sdy.return %[[ARG_EDGE]]
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[MC_EDGE:.*]] = sdy.data_flow_edge %[[MC]] sharding=<@mesh, [{"a", ?}, {?}], replicated={"b"}>
  // Groups 40 and 30 share a value, so they merge into group 0.
  // CHECK-NEXT: sdy.sharding_group %[[SC]] group_id=0
  // CHECK-NEXT: sdy.sharding_group %[[MC_EDGE]] group_id=0
  // CHECK-NEXT: return %[[SC]], %[[MC_EDGE]]
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %c {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>]>} : tensor<8x8xf32>
  %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %5 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %5 : tensor<i1>
  } do {
    %5 = stablehlo.multiply %iterArg, %c : tensor<8x8xf32>
    stablehlo.return %5, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %2 = sdy.sharding_constraint %1#0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %3 = stablehlo.negate %1#0 : tensor<8x8xf32>
  %4 = sdy.manual_computation(%3) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"b", "a"} (%arg2: tensor<4x8xf32>) {
    sdy.return %arg2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  sdy.sharding_group %2 group_id = 40 : tensor<8x8xf32>
  sdy.sharding_group %4 group_id = 30 : tensor<8x8xf32>
  sdy.sharding_group %4 group_id = 40 : tensor<8x8xf32>
  return %2, %4 : tensor<8x8xf32>, tensor<8x8xf32>
}
