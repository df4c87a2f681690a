// Fragment merging: inferred fragments join their consumers, user fragments
// join each other only as one scheduling unit, root fragments absorb.
// RUN: shardkit-opt %s -split-input-file -mpmd-merge-inferred-fragments | FileCheck %s --check-prefix=INFERRED
// RUN: shardkit-opt %s -split-input-file -mpmd-merge-user-fragments-into-scheduling-units | FileCheck %s --check-prefix=UNITS
// RUN: shardkit-opt %s -split-input-file -mpmd-absorb-inferred-fragments | FileCheck %s --check-prefix=ABSORB

!t = !mpmd.mesh_tensor<"m1", tensor<4xf32>>

// An inferred producer used by a user fragment and by the return: the merged
// fragment keeps the user's origin and returns the producer's result too.
// Two user fragments never merge, so only the inferred one disappears.
// INFERRED-LABEL: func.func private @chain
// INFERRED-NEXT:    %[[M:.*]]:2 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0)
// INFERRED-NEXT:      stablehlo.negate
// INFERRED-NEXT:      stablehlo.add
// INFERRED-NEXT:      mpmd.return
// INFERRED-NEXT:    }
// INFERRED-NEXT:    %[[B:.*]] = mpmd.fragment<mesh="m1", origin=["b"(1)]> (%[[M]]#1)
// INFERRED:         return %[[M]]#0, %[[B]]
// UNITS-LABEL: func.func private @chain
// UNITS:           mpmd.fragment<mesh="m1", origin=[]>
// UNITS:           mpmd.fragment<mesh="m1", origin=["a"]>
// UNITS:           mpmd.fragment<mesh="m1", origin=["b"(1)]>
// ABSORB-LABEL: func.func private @chain
// ABSORB-NEXT:    %[[M:.*]]:2 = mpmd.fragment<mesh="m1", origin=["a"]> (%arg0) {call_counter = 3 : ui32}
// ABSORB-NOT:     origin=[]
func.func private @chain(%arg0: !t) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4xf32>) {
    %n = stablehlo.negate %a : tensor<4xf32>
    mpmd.return %n : tensor<4xf32>
  } : (!t) -> !t
  %1 = mpmd.fragment<mesh="m1", origin=["a"]> (%0) {call_counter = 3 : ui32} (%a: tensor<4xf32>) {
    %s = stablehlo.add %a, %a : tensor<4xf32>
    mpmd.return %s : tensor<4xf32>
  } : (!t) -> !t
  %2 = mpmd.fragment<mesh="m1", origin=["b"(1)]> (%1) (%a: tensor<4xf32>) {
    %m = stablehlo.multiply %a, %a : tensor<4xf32>
    mpmd.return %m : tensor<4xf32>
  } : (!t) -> !t
  return %0, %2 : !t, !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4xf32>>

// Two user fragments of the same transpose count and stage form one unit;
// the third has another transpose count and stays apart.
// UNITS-LABEL: func.func private @units
// UNITS-NEXT:    %[[U:.*]] = mpmd.fragment<mesh="m1", origin=["f", "g"], stage=0> (%arg0)
// UNITS-NEXT:      stablehlo.negate
// UNITS-NEXT:      stablehlo.abs
// UNITS-NEXT:      mpmd.return
// UNITS-NEXT:    }
// UNITS-NEXT:    mpmd.fragment<mesh="m1", origin=["h"(1)], stage=0> (%[[U]])
func.func private @units(%arg0: !t) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"], stage=0> (%arg0) (%a: tensor<4xf32>) {
    %n = stablehlo.negate %a : tensor<4xf32>
    mpmd.return %n : tensor<4xf32>
  } : (!t) -> !t
  %1 = mpmd.fragment<mesh="m1", origin=["g"]> (%0) (%a: tensor<4xf32>) {
    %b = stablehlo.abs %a : tensor<4xf32>
    mpmd.return %b : tensor<4xf32>
  } : (!t) -> !t
  %2 = mpmd.fragment<mesh="m1", origin=["h"(1)], stage=0> (%1) (%a: tensor<4xf32>) {
    %m = stablehlo.multiply %a, %a : tensor<4xf32>
    mpmd.return %m : tensor<4xf32>
  } : (!t) -> !t
  return %2 : !t
}
