// RUN: shardkit-opt %s -split-input-file -mpmd-remat-fragment | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -mpmd-remat-fragment='merge-remat-fragments=true' | FileCheck %s --check-prefix=MERGED
// RUN: shardkit-opt %s -split-input-file -mpmd-rule-based-schedule='rules=FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["late"],mesh_name="m1")->FragmentInfo(origins=["early"],mesh_name="m1",call_counter=0)])' | FileCheck %s --check-prefix=RULES
// RUN: shardkit-opt %s -split-input-file -mpmd-move-transfers-to-producer | FileCheck %s --check-prefix=MOVE

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The forward of microbatch 0 is recomputed right before its backward, which
// then reads the copy; the forward of microbatch 1 stays (other counter).
// CHECK-LABEL: func.func @remat(
// CHECK:         %[[F0:.*]] = mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0) {call_counter = 0 : ui32}
// CHECK:         %[[F1:.*]] = mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0) {call_counter = 1 : ui32}
// CHECK:         %[[R:.*]] = mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0) {call_counter = 0 : ui32, remat}
// CHECK-NEXT:      stablehlo.exponential
// CHECK:         mpmd.fragment<mesh="m1", origin=["layer"(1)]> (%[[R]], %[[F1]]) {call_counter = 0 : ui32}
// With merging, the copy joins the backward fragment.
// MERGED-LABEL: func.func @remat(
// MERGED:         mpmd.fragment<mesh="m1", origin=["layer", "layer"(1)]> (%arg0, %{{.*}}) {call_counter = 0 : ui32, remat}
// MERGED-NEXT:      stablehlo.exponential
// MERGED-NEXT:      stablehlo.add
// MERGED-NOT:     origin=["layer"(1)]>
// RULES-LABEL: func.func @remat(
// MOVE-LABEL: func.func @remat(
func.func @remat(%arg0: !m1) -> !m1 attributes {topology = #topology} {
  %f0 = mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0) {call_counter = 0 : ui32} (%a: tensor<4xf32>) {
    %0 = stablehlo.exponential %a : tensor<4xf32>
    mpmd.return %0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1 = mpmd.fragment<mesh="m1", origin=["layer"]> (%arg0) {call_counter = 1 : ui32} (%a: tensor<4xf32>) {
    %0 = stablehlo.exponential %a : tensor<4xf32>
    mpmd.return %0 : tensor<4xf32>
  } : (!m1) -> !m1
  %b0 = mpmd.fragment<mesh="m1", origin=["layer"(1)]> (%f0, %f1) {call_counter = 0 : ui32} (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    mpmd.return %0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  func.return %b0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// The rule puts `late` before `early`; the transfer of `early`'s result
// moves to right after it.
// RULES-LABEL: func.func @rules(
// RULES:         mpmd.fragment<mesh="m1", origin=["late"]>
// RULES:         mpmd.fragment<mesh="m1", origin=["early"]>
// RULES:         mpmd.transfer
// MOVE-LABEL: func.func @rules(
// MOVE:         mpmd.fragment<mesh="m1", origin=["early"]>
// MOVE:         } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
// MOVE-NEXT:    mpmd.transfer
// MOVE-NEXT:    mpmd.fragment<mesh="m1", origin=["late"]>
func.func @rules(%arg0: !m1) -> (!m1, !m2) attributes {topology = #topology} {
  %e = mpmd.fragment<mesh="m1", origin=["early"]> (%arg0) {call_counter = 0 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  %l = mpmd.fragment<mesh="m1", origin=["late"]> (%arg0) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  %t = mpmd.transfer %e : (!m1) -> !m2
  func.return %l, %t : !m1, !m2
}
