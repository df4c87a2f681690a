// RUN: shardkit-opt %s -sdy-apply-sharding-constraints | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A named computation's argument is sharded through the computation's
// in_shardings (created, fully open elsewhere, when missing).
// CHECK-LABEL: func @named_computation_argument
func.func @named_computation_argument(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.named_computation<"f">(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{?}]>]
  %0 = sdy.named_computation<"f">(%arg0, %arg1) (%arg2: tensor<8x8xf32>, %arg3: tensor<8xf32>) {
    %1 = sdy.sharding_constraint %arg2 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A manual computation's argument already has a sharding (its in_sharding),
// so a constraint on it is not applied.
// CHECK-LABEL: func @manual_computation_argument
func.func @manual_computation_argument(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"b"}]> : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Through an edge without a sharding the constraint moves up to the edge and
// takes over all of its uses, inside the manual computation's body.
// CHECK-LABEL: func @manual_computation_argument_edge
func.func @manual_computation_argument_edge(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK:        %[[EDGE:.*]] = sdy.data_flow_edge %arg1 : tensor<4x8xf32>
  // CHECK-NEXT:   %[[SC:.*]] = sdy.sharding_constraint %[[EDGE]] <@mesh, [{}, {"b"}]>
  // CHECK-NEXT:   %[[NEG:.*]] = stablehlo.negate %[[SC]]
  // CHECK-NEXT:   %[[ADD:.*]] = stablehlo.add %[[SC]], %[[NEG]]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = sdy.data_flow_edge %arg1 : tensor<4x8xf32>
    %2 = stablehlo.negate %1 : tensor<4x8xf32>
    %3 = sdy.sharding_constraint %1 <@mesh, [{}, {"b"}]> : tensor<4x8xf32>
    %4 = stablehlo.add %3, %2 : tensor<4x8xf32>
    sdy.return %4 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
