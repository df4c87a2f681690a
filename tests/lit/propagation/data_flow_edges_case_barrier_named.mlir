// Data-flow edges of stablehlo.case (sources: every branch's returned value i),
// stablehlo.optimization_barrier (source: operand i) and sdy.named_computation
// (a body argument's edge has the operand as source, a result's edge the
// body's returned value).
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate -sdy-sink-data-flow-edges | FileCheck %s --check-prefix=SINK

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// The branches agree on "x" and disagree after it: the result takes "x", and
// the branch that had only "x" takes nothing more.
// CHECK-LABEL: func @case_common_prefix
// CHECK-SAME:      %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}
// CHECK-SAME:      %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "z"}, {}]>}
// CHECK-SAME:      %arg3: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME:      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
// CHECK:       %[[EDGE:.*]] = sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x4xf32>
// CHECK-NEXT:  return %[[EDGE]]
// SINK-LABEL: func @case_common_prefix
// SINK:       "stablehlo.case"
// SINK:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<i32>) -> tensor<8x4xf32>
// SINK-NOT:   sdy.data_flow_edge
func.func @case_common_prefix(%arg0: tensor<i32>,
    %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
    %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "z"}, {}]>},
    %arg3: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<8x4xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x4xf32>
  }, {
    stablehlo.return %arg3 : tensor<8x4xf32>
  }) : (tensor<i32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// A user of the case result shards every branch's returned value.
// CHECK-LABEL: func @case_backward_to_branches
// CHECK-SAME:      %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>}
// CHECK-SAME:      %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>}
// CHECK:       stablehlo.exponential %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"z", ?}]>]>}
func.func @case_backward_to_branches(%arg0: tensor<i32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<8x4xf32>
  }, {
    %2 = stablehlo.exponential %arg2 : tensor<8x4xf32>
    stablehlo.return %2 : tensor<8x4xf32>
  }) : (tensor<i32>) -> tensor<8x4xf32>
  %1 = stablehlo.log %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"z"}]>]>} : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Each result of an optimization barrier has its own edge.
// CHECK-LABEL: func @optimization_barrier
// CHECK-SAME:      %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}
// CHECK:       %[[B:.*]]:2 = stablehlo.optimization_barrier %arg0, %arg1
// CHECK-NEXT:  sdy.data_flow_edge %[[B]]#0 sharding=<@mesh, [{"x", ?}, {?}]>
// CHECK-NEXT:  sdy.data_flow_edge %[[B]]#1 sharding=<@mesh, [{?}, {"y", ?}]>
// SINK-LABEL: func @optimization_barrier
// SINK:       stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>, <@mesh, [{?}, {"y", ?}]>]>} %arg0, %arg1
func.func @optimization_barrier(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32>)
    -> (tensor<8x4xf32>, tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8x4xf32>, tensor<8x4xf32>
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Into a named computation through its argument's edge, and out through its
// result's edge.
// CHECK-LABEL: func @named_computation_through
// CHECK-SAME:      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>})
// CHECK:       sdy.named_computation<"inner">(%arg0) (%arg1: tensor<8x4xf32>) {
// CHECK-NEXT:    %[[IN:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"y", ?}, {?}]>
// CHECK-NEXT:    stablehlo.tanh %[[IN]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>}
// CHECK:       sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"y", ?}, {?}]>
// SINK-LABEL: func @named_computation_through
// SINK:       sdy.named_computation<"inner">(%arg0) in_shardings=[<@mesh, [{"y", ?}, {?}]>] out_shardings=[<@mesh, [{"y", ?}, {?}]>] (%arg1: tensor<8x4xf32>) {
func.func @named_computation_through(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x4xf32> {
  %0 = sdy.named_computation<"inner">(%arg0) (%arg1: tensor<8x4xf32>) {
    %1 = stablehlo.tanh %arg1 : tensor<8x4xf32>
    sdy.return %1 : tensor<8x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// From a sharding constraint inside the body, out in both directions.
// CHECK-LABEL: func @named_computation_inside_out
// CHECK-SAME:      %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>}
// CHECK-SAME:      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>})
func.func @named_computation_inside_out(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.named_computation<"inner">(%arg0) (%arg1: tensor<8x4xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"z"}]> : tensor<8x4xf32>
    sdy.return %1 : tensor<8x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
