// RUN: shardkit-opt %s -split-input-file -sdy-sink-data-flow-edges="sink-debug-sharding-origins=true sink-debug-propagation-edge-sharding=true" | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The edges' records are gathered on the data-flow op as the reference
// gathers them: an owner whose edge has no record is left out (so the array
// can be shorter than the owners), and each array is set even when empty.
// CHECK-LABEL: func @origins
func.func @origins(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK-NEXT: stablehlo.optimization_barrier
  // CHECK-SAME:   sdy.block_arg_propagation_edges = []
  // CHECK-SAME:   sdy.block_arg_sharding_origins = []
  // CHECK-SAME:   sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-3 = [{"b" = operand-0 -> [result-0]}]}]>]
  // CHECK-SAME:   sdy.result_sharding_origins = [{a = "input: 1", b = "input: 0"}]
  // CHECK-SAME:   sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"a", "b"}]>]>
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %1 = sdy.data_flow_edge %0#0 : tensor<8xf32>
  %2 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"a", "b"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{"b" = operand-0 -> [result-0]}]}]>, sdy.sharding_origins = {a = "input: 1", b = "input: 0"}} : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
