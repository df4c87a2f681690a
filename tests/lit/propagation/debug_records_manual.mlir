// The debug records of a manual computation: it is named `mc_N`, and the
// records of its data-flow edges are sunk onto it, one per edge.
// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-aggressive-propagate="debug-sharding-origins=true debug-propagation-edge-sharding=true" -sdy-sink-data-flow-edges="sink-debug-sharding-origins=true sink-debug-propagation-edge-sharding=true" | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Step 0 gives the function result the out_sharding (through the result's
// edge); then the in_sharding reaches %arg0, the body's result and argument
// get y.
// CHECK-LABEL: func @manual
// CHECK-SAME:    sdy.sharding_origins = {x = "mc_0_input: 0", y = "mc_0_output: 0"}
func.func @manual(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // CHECK:      stablehlo.abs %arg1
  // CHECK-SAME:   sdy.sharding_origins = [{y = "mc_0_output: 0"}]
  // CHECK:      } {sdy.block_arg_propagation_edges = [#sdy.propagation_edges<[{step-1 = [{"x" = result-0 -> [operand-0]}]}, {step-4 = [{"y" = result-0 -> [operand-0]}]}]>]
  // CHECK-SAME:   sdy.block_arg_sharding_origins = [{x = "self", y = "mc_0_output: 0"}]
  // CHECK-SAME:   sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-2 = [{"y" = result-0 -> [operand-0]}]}]>]
  // CHECK-SAME:   sdy.result_sharding_origins = [{x = "self", y = "self"}]
  // CHECK-SAME:   sdy.sharding_origin_name = "mc_0"
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {"y", ?}]>] manual_axes={"x"} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
