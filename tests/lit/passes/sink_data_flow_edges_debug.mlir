// RUN: shardkit-opt %s -sdy-sink-data-flow-edges="sink-debug-sharding-origins=true" | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// The edges' sharding origins are gathered on the op, one dictionary per
// owner (empty for an owner whose edge has none).
// CHECK-LABEL: func @origins
func.func @origins(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: stablehlo.optimization_barrier
  // CHECK-SAME:   sdy.result_sharding_origins = [{}, {a = "input: 1"}]
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"a"}]>]>
  // CHECK-NOT:  sdy.propagation_edges
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %1 = sdy.data_flow_edge %0#0 {sdy.propagation_edges = {a = "x"}} : tensor<8xf32>
  %2 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"a"}]> {sdy.sharding_origins = {a = "input: 1"}} : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
