// Calls (inlining, counters, sinking constants) and function outputs.
// RUN: shardkit-opt %s -split-input-file -mpmd-from-unroll-to-call-counter -mpmd-call-inline -symbol-dce | FileCheck %s --check-prefix=INLINE
// RUN: shardkit-opt %s -split-input-file -mpmd-sink-negligible-ops-into-call-op | FileCheck %s --check-prefix=SINK
// RUN: shardkit-opt %s -split-input-file -mpmd-uniquify-function-inputs-outputs | FileCheck %s --check-prefix=UNIQ
// RUN: shardkit-opt %s -split-input-file -mpmd-uniquify-function-inputs-outputs=use-transfer-instead-of-fragment=true | FileCheck %s --check-prefix=UNIQT

!t = !mpmd.mesh_tensor<"m1", tensor<4xf32>>

// The unroll counter becomes the call counter, which the inlined fragment
// inherits; the callee is then unused.
// INLINE-LABEL: func.func @main
// INLINE-NEXT:    %[[K:.*]] = mpmd.fragment<mesh="m1", origin=["k"]>
// INLINE:         mpmd.fragment<mesh="m1", origin=["body"]> (%arg0, %[[K]]) {call_counter = 7 : ui32}
// INLINE-NOT:     mpmd.call
// INLINE-NOT:     func.func private @body
// The constant every call passes moves into the callee.
// SINK-LABEL: func.func @main
// SINK-NEXT:    mpmd.call @body(%arg0) {unroll_counter = 7 : ui32} : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) ->
// SINK-LABEL: func.func private @body(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// SINK-NEXT:    mpmd.fragment<mesh="m1", origin=["k"]>
func.func @main(%arg0: !t) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %k = mpmd.fragment<mesh="m1", origin=["k"]> () () {
    %c = stablehlo.constant dense<2.0> : tensor<4xf32>
    mpmd.return %c : tensor<4xf32>
  } : () -> !t
  %0 = mpmd.call @body(%arg0, %k) {unroll_counter = 7 : ui32} : (!t, !t) -> !t
  return %0 : !t
}

func.func private @body(%arg0: !t, %arg1: !t) -> !t
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["body"]> (%arg0, %arg1) (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    %s = stablehlo.add %a, %b : tensor<4xf32>
    mpmd.return %s : tensor<4xf32>
  } : (!t, !t) -> !t
  return %0 : !t
}

// -----

!t = !mpmd.mesh_tensor<"m1", tensor<4xf32>>

// A result returned twice and an argument returned: one inferred fragment
// gives each position a value of its own; with transfers, one transfer per
// extra position and per argument.
// UNIQ-LABEL: func.func @outputs
// UNIQ:         %[[U:.*]]:3 = mpmd.fragment<mesh="m1", origin=[]> (%[[F:.*]], %arg0) {mpmd.inferred_by = ["uniquify"]}
// UNIQ-NEXT:      mpmd.return %[[A:.*]], %[[A]], %[[B:.*]] :
// UNIQ:         return %[[U]]#0, %[[U]]#1, %[[U]]#2
// UNIQT-LABEL: func.func @outputs
// UNIQT:         %[[F:.*]] = mpmd.fragment
// UNIQT:         %[[T1:.*]] = mpmd.transfer %[[F]]
// UNIQT-NEXT:    %[[T2:.*]] = mpmd.transfer %arg0
// UNIQT-NEXT:    return %[[F]], %[[T1]], %[[T2]]
func.func @outputs(%arg0: !t) -> (!t, !t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) (%a: tensor<4xf32>) {
    %n = stablehlo.negate %a : tensor<4xf32>
    mpmd.return %n : tensor<4xf32>
  } : (!t) -> !t
  return %0, %0, %arg0 : !t, !t, !t
}
