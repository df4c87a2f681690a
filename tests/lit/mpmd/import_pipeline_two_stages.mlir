// RUN: shardkit-opt %s -mpmd-import-pipeline="name-to-mesh-assignment=stage1@m1,stage2@m2" | FileCheck %s

// The example of docs/mpmd.md: the scaling before stage 1 joins stage 1's
// fragment, stage 1's result is transferred to m2, the add after stage 2 is
// wrapped in an inferred fragment on m2 that then merges into stage 2, and
// the signature is on meshes.

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: !mpmd.mesh_tensor<"m1", tensor<4x8xf32>>,
// CHECK-SAME:    %arg1: !mpmd.mesh_tensor<"m1", tensor<8x8xf32>>,
// CHECK-SAME:    %arg2: !mpmd.mesh_tensor<"m2", tensor<8x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:    %[[S1:.*]] = mpmd.fragment<mesh="m1", origin=["stage1"]> (%arg1, %arg0)
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      stablehlo.dot
// CHECK-NEXT:      stablehlo.tanh
// CHECK:         %[[T:.*]] = mpmd.transfer %[[S1]] : (!mpmd.mesh_tensor<"m1", tensor<4x8xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<4x8xf32>>
// CHECK-NEXT:    %[[S2:.*]] = mpmd.fragment<mesh="m2", origin=["stage2"]> (%[[T]], %arg2)
// CHECK-NEXT:      stablehlo.dot
// CHECK-NEXT:      stablehlo.add
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[S2]]
// CHECK-NOT:     mpmd.assign
// CHECK-NOT:     mpmd.unassign
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
