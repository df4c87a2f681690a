// RUN: shardkit-opt %s -sdy-close-shardings | FileCheck %s

sdy.mesh @mesh = <["x"=4, "y"=2, "z"=2]>

// Function argument and result shardings: every dimension closed (priorities
// kept), replicated axes dropped.
// CHECK-LABEL: func @signature(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
func.func @signature(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {?}], replicated={"y"}>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}) {
  return %arg0 : tensor<8x8xf32>
}

// Op results, constraints and edges alike; unreduced axes stay (partial
// values explicit reshards must still reduce).
// CHECK-LABEL: func @ops
func.func @ops(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"z"}>]>}
  // CHECK-NEXT: %[[SC:.*]] = sdy.sharding_constraint %[[NEG]] <@mesh, [{}, {"z"}]>
  // CHECK-NEXT: %[[BARRIER:.*]] = stablehlo.optimization_barrier %[[SC]]
  // CHECK-NEXT: %[[EDGE:.*]] = sdy.data_flow_edge %[[BARRIER]] sharding=<@mesh, [{"y"}, {}]>
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}], unreduced={"z"}>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"z", ?}], replicated={"y"}> : tensor<8x8xf32>
  %2 = stablehlo.optimization_barrier %1 : tensor<8x8xf32>
  %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"y", ?}, {?}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// A manual computation's in/out shardings lose their replicated axes, manual
// ones included, as in the reference.
// CHECK-LABEL: func @manual_computation
func.func @manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0)
  // CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"x"}]>]
  // CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"x"}]>]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}], replicated={"y", "z"}>] out_shardings=[<@mesh, [{"x", ?}], replicated={"z"}>] manual_axes={"x", "z"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
