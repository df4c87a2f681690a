// RUN: shardkit-opt %s -split-input-file -mpmd-mark-input-output-with-layouts 2>&1 | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -mpmd-delay-transfers-from-cpu -mpmd-delay-inferred-fragments 2>&1 | FileCheck %s --check-prefix=DELAY

// Diagnostics come before the modules.
// CHECK: warning: Arg #0 is used in a transfer op, but with a non-default layout: "abc". Forcing the layout to default.

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// A custom argument layout reaches its one user; an auto argument used by
// two fragments falls back to the default (the entry goes); the result's
// layout reaches its producer; an unused result is auto.
// CHECK-LABEL: func.func @layouts(
// CHECK-SAME:    %arg0: {{.*}} {mhlo.layout_mode = "abc"}, %arg1: !mpmd.mesh_tensor<"m1", tensor<4xf32>>)
// CHECK-SAME:    -> (!mpmd.mesh_tensor<"m1", tensor<4xf32>> {mhlo.layout_mode = "xyz"})
// CHECK:       mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %arg1)
// CHECK-SAME:    arg_attrs = [{mhlo.layout_mode = "abc"}, {}], res_attrs = [{mhlo.layout_mode = "xyz"}, {mhlo.layout_mode = "auto"}]
// CHECK:       mpmd.fragment<mesh="m1", origin=["g"]> (%arg1)
// CHECK-SAME:    arg_attrs = [{}]
// DELAY-LABEL: func.func @layouts(
func.func @layouts(%a: !m1 {mhlo.layout_mode = "abc"},
                   %b: !m1 {mhlo.layout_mode = "auto"})
    -> (!m1 {mhlo.layout_mode = "xyz"}) attributes {topology = #topology} {
  %f:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%a, %b)
      (%x: tensor<4xf32>, %y: tensor<4xf32>) {
    %0 = stablehlo.add %x, %y : tensor<4xf32>
    mpmd.return %0, %0 : tensor<4xf32>, tensor<4xf32>
  } : (!m1, !m1) -> (!m1, !m1)
  %g = mpmd.fragment<mesh="m1", origin=["g"]> (%b) (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!m1) -> !m1
  func.return %f#0 : !m1
}

// -----

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>

// Transfers only move default layouts: a custom one is overridden with the
// warning above.
// CHECK-LABEL: func.func @transferred(
// CHECK-NOT:   mhlo.layout_mode = "abc"
// CHECK:       return
func.func @transferred(%a: !m1 {mhlo.layout_mode = "abc"}) -> !m2
    attributes {topology = #topology} {
  %t = mpmd.transfer %a : (!m1) -> !m2
  func.return %t : !m2
}

// -----

!cpu = !mpmd.mesh_tensor<"m1#cpu", tensor<4xf32>>
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m1#cpu": <["x"=1]>>>

// The transfer from the CPU mesh and the inferred fragment move down to
// their first users; the user fragment stays first.
// DELAY-LABEL: func.func @delays(
// DELAY-NEXT:    mpmd.fragment<mesh="m1", origin=["user"]>
// DELAY:         mpmd.transfer %arg1
// DELAY-NEXT:    mpmd.fragment<mesh="m1", origin=[]>
// DELAY:         mpmd.fragment<mesh="m1", origin=["consumer"]>
func.func @delays(%a: !m1, %c: !cpu) -> (!m1, !m1) attributes {topology = #topology} {
  %t = mpmd.transfer %c : (!cpu) -> !m1
  %inferred = mpmd.fragment<mesh="m1", origin=[]> (%a) {mpmd.inferred_by = ["p"]} (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!m1) -> !m1
  %u = mpmd.fragment<mesh="m1", origin=["user"]> (%a) (%x: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!m1) -> !m1
  %v = mpmd.fragment<mesh="m1", origin=["consumer"]> (%t, %inferred) (%x: tensor<4xf32>, %y: tensor<4xf32>) {
    mpmd.return %x : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  func.return %u, %v : !m1, !m1
}
