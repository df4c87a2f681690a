// The body of a manual computation is local with respect to its manual axes:
// the edge of a body argument (or result) holds the sharding without them,
// while its sources outside (the operands) are global. Propagating across an
// edge puts the manual axes of in_shardings/out_shardings in front of each
// dimension on the way out and takes them off on the way in.
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate -sdy-sink-data-flow-edges | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate | FileCheck %s --check-prefix=EDGE

sdy.mesh @mesh = <["m"=2, "x"=2, "y"=2, "z"=2]>

// A free axis found inside the body goes out behind the manual axis, to the
// operand and to in_shardings.
// CHECK-LABEL: func @free_axis_from_inside_to_operand
// CHECK-SAME:      %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m", "x", ?}, {?}]>}
// CHECK:       sdy.manual_computation(%arg0)
// CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"m", "x", ?}, {?}]>] out_shardings=[<@mesh, [{"m"}, {}]>] manual_axes={"m"}
// EDGE-LABEL: func @free_axis_from_inside_to_operand
// EDGE:       sdy.data_flow_edge %arg1 sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x8xf32>
func.func @free_axis_from_inside_to_operand(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"m", ?}, {?}]>] out_shardings=[<@mesh, [{"m"}, {}]>] manual_axes={"m"} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    %2 = stablehlo.custom_call @opaque(%1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["m"=2, "x"=2, "y"=2, "z"=2]>

// A free axis of the operand, behind the manual axis, enters the body
// without the manual axis.
// CHECK-LABEL: func @free_axis_from_operand_into_body
// CHECK:       sdy.manual_computation(%arg0)
// CHECK-SAME{LITERAL}: in_shardings=[<@mesh, [{"m", "y", ?}, {"z", ?}]>]
// CHECK:       stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {"z", ?}]>]>}
func.func @free_axis_from_operand_into_body(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m", "y"}, {"z"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"m", ?}, {?}]>] out_shardings=[<@mesh, [{"m"}, {}]>] manual_axes={"m"} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<8x8xf32>
    %2 = stablehlo.custom_call @opaque(%1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["m"=2, "x"=2, "y"=2, "z"=2]>

// A free axis leaves the body through the result edge (manual axis put back
// in front) and reaches a user of the result.
// CHECK-LABEL: func @free_axis_out_through_result
// CHECK-SAME:      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m", ?}, {"x", ?}]>})
// CHECK:       sdy.manual_computation
// CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"m", ?}, {"x", ?}]>]
// CHECK:       stablehlo.sine %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"m", ?}, {"x", ?}]>]>}
// EDGE-LABEL: func @free_axis_out_through_result
// EDGE:       sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"m", ?}, {"x", ?}]> : tensor<16x8xf32>
func.func @free_axis_out_through_result(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"m"}, {}]>] out_shardings=[<@mesh, [{"m", ?}, {?}]>] manual_axes={"m"} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.custom_call @opaque(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = stablehlo.sine %0 : tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["m"=2, "x"=2, "y"=2, "z"=2]>

// A user of the result shards the body's returned value without the manual
// axis; replicated manual axes stay on the computation's shardings only.
// CHECK-LABEL: func @result_user_into_body
// CHECK:       sdy.manual_computation
// CHECK-SAME{LITERAL}: out_shardings=[<@mesh, [{"y", ?}, {?}], replicated={"m"}>]
// CHECK:       stablehlo.cosine %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>}
func.func @result_user_into_body(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}], replicated={"m"}>] out_shardings=[<@mesh, [{?}, {?}], replicated={"m"}>] manual_axes={"m"} (%arg1: tensor<16x8xf32>) {
    %1 = stablehlo.custom_call @opaque(%arg1) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = stablehlo.cosine %1 : tensor<16x8xf32>
    sdy.return %2 : tensor<16x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = stablehlo.sine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["m"=2, "x"=2, "y"=2, "z"=2]>

// Without manual axes the edges are plain identities.
// CHECK-LABEL: func @no_manual_axes
// CHECK-SAME:      %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}, {?}]>}
// CHECK-SAME:      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}, {?}]>})
func.func @no_manual_axes(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={} (%arg1: tensor<16x8xf32>) {
    %1 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {}]>]>} : tensor<16x8xf32>
    sdy.return %1 : tensor<16x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
