// RUN: shardkit-opt %s -mpmd-validate-no-inferred-fragments='fail-on-inferred-fragments=false' -mpmd-lower-to-fragment-calls -mpmd-validate-no-reshards -mpmd-validate-no-backward-deps 2>&1 | FileCheck %s
// RUN: not shardkit-opt %s -mpmd-lower-to-fragment-calls -mpmd-validate-no-backward-deps='fail-on-backward-deps=true' 2>&1 | FileCheck %s --check-prefix=FAIL

// Without fail-on-* options the checks warn and the module is still written.

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m1_x = !mpmd.mesh_tensor<"m1", tensor<4xf32>, sharding=<@m1, [{"x"}]>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>

sdy.mesh @m1 = <["x"=2]>

// CHECK-DAG: warning: Inferred fragment has not been merged (inferred by some_pass)
// CHECK-DAG: warning: Detected reshard-only fragment 'p0_inferred.main'. This usually indicates an unexpected reshard. Operands: Replicated <4xf32>
// CHECK-DAG: warning: Detected backward dependency but expected forward-only pipeline since there are no transpose fragments: fragment "p2_stage_b.main" mesh="m2" produces a value consumed by fragment "p3_stage_a.main" mesh="m1".
// CHECK:     func.func @main
// FAIL:      error: Detected backward dependency
// FAIL-NOT:  func.func
func.func @main(%arg0: !m1) -> !m1 attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  // Only changes the sharding: reshard-only once lowered.
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) {mpmd.inferred_by = ["some_pass"]} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1_x
  %1 = mpmd.fragment<mesh="m1", origin=["stage_a"]> (%0) (%a: tensor<4xf32>) {
    %r = stablehlo.abs %a : tensor<4xf32>
    mpmd.return %r : tensor<4xf32>
  } : (!m1_x) -> !m1
  %t = mpmd.transfer %1 : (!m1) -> !m2
  %2 = mpmd.fragment<mesh="m2", origin=["stage_b"]> (%t) (%a: tensor<4xf32>) {
    %r = stablehlo.negate %a : tensor<4xf32>
    mpmd.return %r : tensor<4xf32>
  } : (!m2) -> !m2
  // Back to m1: a backward dependency in a forward-only program.
  %back = mpmd.transfer %2 : (!m2) -> !m1
  %3 = mpmd.fragment<mesh="m1", origin=["stage_a"]> (%back) (%a: tensor<4xf32>) {
    %r = stablehlo.exponential %a : tensor<4xf32>
    mpmd.return %r : tensor<4xf32>
  } : (!m1) -> !m1
  func.return %3 : !m1
}
