// -mpmd-split-bwd-fragments: the transferred result of a backward fragment
// and what it needs come first; the result that stays (a weight gradient)
// is computed in a second fragment from residuals of the first.
// RUN: shardkit-opt %s -mpmd-split-bwd-fragments -mpmd-fragment-dedup -mpmd-fragment-dce -canonicalize -mpmd-fragment-dce | FileCheck %s

!a = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!b = !mpmd.mesh_tensor<"m2", tensor<4xf32>>

// CHECK-LABEL: func.func @backward
// CHECK-NEXT:    %[[K:.*]] = mpmd.fragment<mesh="m1", origin=["layer"(1)]> (%arg0) {split_keep_transferred}
// CHECK-NEXT:      %[[N:.*]] = stablehlo.negate
// CHECK-NEXT:      mpmd.return %[[N]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[D:.*]] = mpmd.fragment<mesh="m1", origin=["layer"(1)]> (%arg1, %[[K]]) {split_drop_transferred}
// CHECK-NEXT:      stablehlo.multiply
// CHECK-NEXT:      mpmd.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = mpmd.transfer %[[K]]
// CHECK-NEXT:    return %[[T]], %[[D]]
func.func @backward(%arg0: !a, %arg1: !a) -> (!b, !a)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["layer"(1)]> (%arg0, %arg1) (%x: tensor<4xf32>, %w: tensor<4xf32>) {
    %n = stablehlo.negate %x : tensor<4xf32>
    %g = stablehlo.multiply %n, %w : tensor<4xf32>
    mpmd.return %n, %g : tensor<4xf32>, tensor<4xf32>
  } : (!a, !a) -> (!a, !a)
  %t = mpmd.transfer %0#0 : (!a) -> !b
  return %t, %0#1 : !b, !a
}

// A forward fragment (transpose count 0) is left whole.
// CHECK-LABEL: func.func @forward
// CHECK-NEXT:    mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0, %arg1) (
func.func @forward(%arg0: !a, %arg1: !a) -> (!b, !a)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0, %arg1) (%x: tensor<4xf32>, %w: tensor<4xf32>) {
    %n = stablehlo.negate %x : tensor<4xf32>
    %g = stablehlo.multiply %n, %w : tensor<4xf32>
    mpmd.return %n, %g : tensor<4xf32>, tensor<4xf32>
  } : (!a, !a) -> (!a, !a)
  %t = mpmd.transfer %0#0 : (!a) -> !b
  return %t, %0#1 : !b, !a
}
