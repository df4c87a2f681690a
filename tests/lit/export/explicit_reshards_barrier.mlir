// RUN: shardkit-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s

// -sdy-insert-explicit-reshards reads an operand's sharding through the
// propagation barriers that produce it: here the dot's result, sharded by
// its contracting axis "a", is computed as the lhs has it and resharded.

sdy.mesh @m = <["a"=2, "b"=2]>

// CHECK-LABEL: func @dot_result_follows_lhs_behind_barrier
func.func @dot_result_follows_lhs_behind_barrier(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {"a"}]>},
                                                 %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) {
  // CHECK-NEXT: %[[B0:.*]] = sdy.propagation_barrier %arg0 allowed_direction=NONE
  // CHECK-NEXT: %[[B1:.*]] = sdy.propagation_barrier %[[B0]] allowed_direction=BACKWARD
  // CHECK-NEXT: %[[DOT:.*]] = stablehlo.dot %[[B1]], %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>]>}
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[DOT]] <@m, [{"a"}, {}]>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8x16xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<8x16xf32>
  %2 = stablehlo.dot %1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
