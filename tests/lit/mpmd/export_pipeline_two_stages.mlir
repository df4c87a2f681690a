// RUN: shardkit-opt %s -mpmd-import-pipeline="name-to-mesh-assignment=stage1@m1,stage2@m2" -mpmd-export-pipeline 2>&1 | FileCheck %s

// The example of docs/mpmd.md from a JAX-style module to fragment calls.
// The common passes absorb the meshless multiply into stage 1 and merge the
// add after stage 2 into it, so no inferred fragment is left to warn about.

// CHECK-NOT:   warning:
// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    %[[S1:.*]] = mpmd.fragment_call<mesh="m1", origin=["stage1"]> @p0_stage1.main(%arg1, %arg0)
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[S1]]
// CHECK-NEXT:    %[[S2:.*]] = mpmd.fragment_call<mesh="m2", origin=["stage2"]> @p1_stage2.main(%[[T]], %arg2)
// CHECK-NEXT:    return %[[S2]]
// CHECK:       func.func @p0_stage1.main(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:    attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 0 : i64}
// CHECK-NEXT:    stablehlo.multiply %arg1, %arg1
// CHECK:       func.func @p1_stage2.main(%arg0: tensor<4x8xf32> {tf.aliasing_output = 0 : i32}, %arg1: tensor<8x8xf32>)
// CHECK-SAME:    reserved_hbm_bytes = 0 : i64
// CHECK:         stablehlo.add
// CHECK-NOT:   mpmd.fragment<
func.func @main(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>)
    -> tensor<4x8xf32> attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %xs = stablehlo.multiply %x, %x : tensor<4x8xf32>
  %h = mpmd.named_computation<"stage1"> (%xs, %w1)
      (%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) {
    %0 = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.tanh %0 : tensor<4x8xf32>
    mpmd.return %1 : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = mpmd.named_computation<"stage2"> (%h, %w2)
      (%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) {
    %0 = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    mpmd.return %0 : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %z = stablehlo.add %y, %y : tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
