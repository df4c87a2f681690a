// -mpmd-merge-forward-with-backward: a forward fragment and the backward
// fragment using it merge when nothing else runs between them on their mesh
// (fragments on other meshes do not count).
// RUN: shardkit-opt %s -mpmd-merge-forward-with-backward | FileCheck %s

!a = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!b = !mpmd.mesh_tensor<"m2", tensor<4xf32>>

// CHECK-LABEL: func.func @adjacent
// CHECK-NEXT:    mpmd.fragment<mesh="m2", origin=["other"]>
// CHECK:         mpmd.fragment<mesh="m1", origin=["stage", "stage"(1)]> (%arg0)
// CHECK-NEXT:      stablehlo.exponential
// CHECK-NEXT:      stablehlo.log
func.func @adjacent(%arg0: !a, %arg1: !b) -> (!a, !b)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["stage"]> (%arg0) (%x: tensor<4xf32>) {
    %e = stablehlo.exponential %x : tensor<4xf32>
    mpmd.return %e : tensor<4xf32>
  } : (!a) -> !a
  %1 = mpmd.fragment<mesh="m2", origin=["other"]> (%arg1) (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!b) -> !b
  %2 = mpmd.fragment<mesh="m1", origin=["stage"(1)]> (%0) (%x: tensor<4xf32>) {
    %l = stablehlo.log %x : tensor<4xf32>
    mpmd.return %l : tensor<4xf32>
  } : (!a) -> !a
  return %2, %1 : !a, !b
}

// CHECK-LABEL: func.func @not_adjacent
// CHECK:         mpmd.fragment<mesh="m1", origin=["stage"]>
// CHECK:         mpmd.fragment<mesh="m1", origin=["between"]>
// CHECK:         mpmd.fragment<mesh="m1", origin=["stage"(1)]>
func.func @not_adjacent(%arg0: !a) -> (!a, !a)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["stage"]> (%arg0) (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!a) -> !a
  %1 = mpmd.fragment<mesh="m1", origin=["between"]> (%arg0) (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!a) -> !a
  %2 = mpmd.fragment<mesh="m1", origin=["stage"(1)]> (%0) (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!a) -> !a
  return %1, %2 : !a, !a
}
