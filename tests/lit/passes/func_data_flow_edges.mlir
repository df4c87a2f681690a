// RUN: shardkit-opt %s -split-input-file -sdy-add-func-data-flow-edges | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-add-func-data-flow-edges -sdy-sink-func-data-flow-edges | FileCheck %s --check-prefix=SINK

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Every argument of a called function gets an edge first in its body, every
// call result one right after the call; the main function's arguments none.
// An edge starts with the sharding of what it wraps, and sinking the edges
// gives everything back as it was.
// CHECK-LABEL: func @main(%arg0: tensor<16x8xf32>)
// CHECK-NEXT:    %0:2 = call @callee(%arg0, %arg0)
// CHECK-NEXT:    %1 = sdy.func_data_flow_edge %0#0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x8xf32>
// CHECK-NEXT:    %2 = sdy.func_data_flow_edge %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} : tensor<16x8xf32>
// CHECK-NEXT:    %3 = stablehlo.add %2, %1
// CHECK-LABEL: func private @callee(
// CHECK-SAME:    %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<16x8xf32>)
// CHECK-NEXT:    %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<16x8xf32>
// CHECK-NEXT:    %1 = sdy.func_data_flow_edge %arg1 : tensor<16x8xf32>
// CHECK-NEXT:    %2 = stablehlo.multiply %0, %1
// CHECK-NEXT:    return %2, %1

// SINK-LABEL: func @main(%arg0: tensor<16x8xf32>)
// SINK-NEXT:    %0:2 = call @callee(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{?}, {?}]>]>}
// SINK-NEXT:    %1 = stablehlo.add %0#1, %0#0
// SINK-LABEL: func private @callee(
// SINK-SAME:    %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<16x8xf32>)
// SINK-NEXT:    %0 = stablehlo.multiply %arg0, %arg1
// SINK-NOT:     sdy.func_data_flow_edge
func.func @main(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0:2 = call @callee(%arg0, %arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{?}, {?}]>]>} : (tensor<16x8xf32>, tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>)
  %1 = stablehlo.add %0#1, %0#0 : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

func.func private @callee(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<16x8xf32>
  return %0, %arg1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// Without a function named main (and with more than one function), the
// functions nobody calls are the entries: neither @entry nor @other gets
// argument edges, but the call inside the manual computation gets a result
// edge.
// CHECK-LABEL: func @entry(%arg0: tensor<16xf32>)
// CHECK-NEXT:    sdy.manual_computation
// CHECK-NEXT:      %[[CALL:.*]] = func.call @leaf(%arg1)
// CHECK-NEXT:      %[[EDGE:.*]] = sdy.func_data_flow_edge %[[CALL]] : tensor<4xf32>
// CHECK-NEXT:      sdy.return %[[EDGE]]
// CHECK-LABEL: func @other(%arg0: tensor<4xf32>)
// CHECK-NEXT:    return %arg0
// CHECK-LABEL: func private @leaf(%arg0: tensor<4xf32>)
// CHECK-NEXT:    %0 = sdy.func_data_flow_edge %arg0 : tensor<4xf32>
// CHECK-NEXT:    %1 = stablehlo.abs %0

// SINK-LABEL: func @entry(%arg0: tensor<16xf32>)
// SINK-NOT:     sdy.func_data_flow_edge
func.func @entry(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @leaf(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

func.func @other(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

func.func private @leaf(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
