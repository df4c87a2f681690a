// Cleanups of fragments and transfers: DCE, dedup, constants, cycles, and
// merging small transfers.
// RUN: shardkit-opt %s -split-input-file -mpmd-fragment-dedup -mpmd-fragment-dce | FileCheck %s --check-prefix=CLEAN
// RUN: shardkit-opt %s -split-input-file -mpmd-copy-constants | FileCheck %s --check-prefix=CONST
// RUN: shardkit-opt %s -split-input-file -mpmd-remove-transfer-cycles | FileCheck %s --check-prefix=CYCLE
// RUN: shardkit-opt %s -split-input-file -mpmd-merge-transfers -mpmd-fragment-dce | FileCheck %s --check-prefix=MERGE

!t = !mpmd.mesh_tensor<"m1", tensor<4xf32>>

// A duplicate operand and a duplicate result collapse; the dead add and the
// operand only it read go, and so does the fragment feeding that operand.
// CLEAN-LABEL: func.func @dedup_then_dce
// CLEAN-NEXT:    %[[F:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%arg2: tensor<4xf32>) {
// CLEAN-NEXT:      %[[M:.*]] = stablehlo.multiply %arg2, %arg2
// CLEAN-NEXT:      mpmd.return %[[M]] : tensor<4xf32>
// CLEAN-NEXT:    }
// CLEAN-NEXT:    return %[[F]], %[[F]]
func.func @dedup_then_dce(%arg0: !t, %arg1: !t) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %p = mpmd.fragment<mesh="m1", origin=["p"]> (%arg1) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!t) -> !t
  %0:3 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg0, %p)
      (%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) {
    %m = stablehlo.multiply %a, %b : tensor<4xf32>
    %d = stablehlo.add %c, %c : tensor<4xf32>
    mpmd.return %m, %m, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  } : (!t, !t, !t) -> (!t, !t, !t)
  return %0#0, %0#1 : !t, !t
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>

// A constant reaching a fragment through transfers is recomputed there.
// CONST-LABEL: func.func @constant_through_transfer
// CONST:         mpmd.fragment<mesh="m2", origin=["use"]>
// CONST-NEXT:      %[[C:.*]] = stablehlo.constant dense<1.000000e+00>
// CONST-NEXT:      stablehlo.add %[[C]], %[[C]]
// A chain that comes back to m1 is the value it started from.
// CYCLE-LABEL: func.func @constant_through_transfer
// CYCLE:         %[[T:.*]] = mpmd.transfer %[[C:.*]] : {{.*}}"m1"{{.*}} -> {{.*}}"m2"
// CYCLE-NEXT:    mpmd.fragment<mesh="m2", origin=["use"]> (%[[T]])
// CYCLE:         return %[[C]],
func.func @constant_through_transfer() -> (!t1, !t2)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %c = mpmd.fragment<mesh="m1", origin=["c"]> () () {
    %k = stablehlo.constant dense<1.0> : tensor<4xf32>
    mpmd.return %k : tensor<4xf32>
  } : () -> !t1
  %t = mpmd.transfer %c : (!t1) -> !t2
  %u = mpmd.fragment<mesh="m2", origin=["use"]> (%t) (%a: tensor<4xf32>) {
    %s = stablehlo.add %a, %a : tensor<4xf32>
    mpmd.return %s : tensor<4xf32>
  } : (!t2) -> !t2
  %back = mpmd.transfer %t : (!t2) -> !t1
  return %back, %u : !t1, !t2
}

// -----

!s1 = !mpmd.mesh_tensor<"m1", tensor<f32>>
!s2 = !mpmd.mesh_tensor<"m2", tensor<f32>>

// Two scalars sent to one consumer travel as one tensor<2xf32>.
// MERGE-LABEL: func.func @two_scalars
// MERGE:         stablehlo.concatenate {{.*}}, dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
// MERGE:         %[[J:.*]] = mpmd.transfer {concat_transfer} {{.*}} -> !mpmd.mesh_tensor<"m2", tensor<2xf32>>
// MERGE-NEXT:    mpmd.fragment<mesh="m2", origin=["g"]> (%[[J]]) (%[[A:.*]]: tensor<2xf32>)
// MERGE-NEXT:      stablehlo.slice %[[A]] [0:1]
// MERGE-NEXT:      stablehlo.reshape
// MERGE-NEXT:      stablehlo.slice %[[A]] [1:2]
func.func @two_scalars(%arg0: !s1) -> !s2
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<f32>) {
    %n = stablehlo.negate %a : tensor<f32>
    mpmd.return %a, %n : tensor<f32>, tensor<f32>
  } : (!s1) -> (!s1, !s1)
  %t0 = mpmd.transfer %0#0 : (!s1) -> !s2
  %t1 = mpmd.transfer %0#1 : (!s1) -> !s2
  %1 = mpmd.fragment<mesh="m2", origin=["g"]> (%t0, %t1) (%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.subtract %a, %b : tensor<f32>
    mpmd.return %s : tensor<f32>
  } : (!s2, !s2) -> !s2
  return %1 : !s2
}
