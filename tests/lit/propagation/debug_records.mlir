// Propagation's debug records: where each axis came from
// (debug-sharding-origins) and which operand or result gave it to which, step
// by step (debug-propagation-edge-sharding); --explain-op reads them back.
// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-aggressive-propagate="debug-sharding-origins=true debug-propagation-edge-sharding=true" -sdy-sink-data-flow-edges="sink-debug-sharding-origins=true sink-debug-propagation-edge-sharding=true" | FileCheck %s
// RUN: shardkit-opt %s -sdy-aggressive-propagate="debug-sharding-origins=true" --explain-op=stablehlo.multiply | FileCheck %s --check-prefix=EXPLAIN

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>

// The function result's axis z went back to the exponential first (step 0),
// then the argument's x went forward, the constraint's y backward.
// CHECK-LABEL: func @chain
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>, sdy.sharding_origins = {x = "self", y = "constraint_0"}}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>, sdy.sharding_origins = {x = "input: 0", y = "constraint_0"}}
// CHECK-SAME:    sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"z" = result-0 -> [operand-0]}]}, {step-5 = [{"x" = operand-0 -> [result-0]}]}]>
// CHECK-SAME:    sdy.sharding_origins = {x = "input: 0", z = "self"}
func.func @chain(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                 %arg1: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>}) {
  // CHECK-NEXT: stablehlo.multiply %arg0, %arg1
  // CHECK-SAME:   sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"x" = operand-0 -> [operand-1, result-0]}]}, {step-3 = [{"y" = result-0 -> [operand-0, operand-1]}]}]>
  // CHECK-SAME:   sdy.sharding_origins = [{x = "input: 0", y = "constraint_0"}]
  // CHECK-NEXT: sdy.sharding_constraint
  // CHECK-SAME:   sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"x" = operand-0 -> [result-0]}, {"y" = result-0 -> [operand-0]}]}]>
  // CHECK-SAME:   sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {x = "input: 0", y = "self"}
  // CHECK-NEXT: stablehlo.exponential
  // CHECK-SAME:   sdy.sharding_origins = [{x = "input: 0", z = "output: 0"}]
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"y", ?}]> : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// EXPLAIN:      where each axis came from (sdy.sharding_origins):
// EXPLAIN-NEXT: | tensor          | i: 8            | j: 16               |
// EXPLAIN-NEXT: |-----------------|-----------------|---------------------|
// EXPLAIN-NEXT: | operand 0 %arg0 | "x" <- self     | "y" <- constraint_0 |
// EXPLAIN-NEXT: | operand 1 %arg1 | "x" <- input: 0 | "y" <- constraint_0 |
// EXPLAIN-NEXT: | result 0 %0     | "x" <- input: 0 | "y" <- constraint_0 |

