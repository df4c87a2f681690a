// RUN: shardkit-opt %s -mpmd-lower-to-fragment-calls='verbose-logging=true' 2>&1 | FileCheck %s

// Equal fragments (same mesh, attribute lists and body) share one function,
// whatever their origins and counters; its name numbers the group and
// summarizes the call counters. In a program with a transposed fragment,
// names carry the phases; a fragment with a stage is named by it.

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>, sharding=<@mesh, [{"x"}]>>

sdy.mesh @mesh = <["x"=2]>

// The log lists each mesh's fragments in program order.
// CHECK:      Module main on mesh m1 will execute the following XLA programs:
// CHECK-NEXT: - p0_layer_0_fwd_calls0to1.main from program with origins [layer_0(fwd)], call counter 0.
// CHECK-NEXT: - p0_layer_0_fwd_calls0to1.main from program with origins [layer_0(fwd)], call counter 1.
// CHECK-NEXT: - p1_layer_0_bwd.main from program with origins [layer_0(bwd)].
// CHECK:      Module main on mesh m2 will execute the following XLA programs:
// CHECK-NEXT: - p2_stage3_fwd.main from program with origins [head(fwd)], stage id 3.

// CHECK-LABEL: func.func @main
// CHECK-NEXT:  %[[A:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer_0"]> @p0_layer_0_fwd_calls0to1.main(%arg0)
// CHECK-NEXT:  %[[B:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer_0"]> @p0_layer_0_fwd_calls0to1.main(%[[A]])
// CHECK-NEXT:  %[[C:.*]] = mpmd.fragment_call<mesh="m1", origin=["layer_0"(1)]> @p1_layer_0_bwd.main(%[[B]]) {remat}
// CHECK-NEXT:  %[[T:.*]] = mpmd.transfer %[[C]]
// CHECK-NEXT:  %[[D:.*]] = mpmd.fragment_call<mesh="m2", origin=["head"]> @p2_stage3_fwd.main(%[[T]])
// CHECK-NEXT:  return %[[D]]
func.func @main(%arg0: !m1) -> !m2 attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["layer_0"]> (%arg0) {call_counter = 0 : ui32, reserved_hbm_bytes = 16 : i64} (%a: tensor<4xf32>) {
    %1 = stablehlo.abs %a : tensor<4xf32>
    mpmd.return %1 : tensor<4xf32>
  } : (!m1) -> !m1
  %1 = mpmd.fragment<mesh="m1", origin=["layer_0"]> (%0) {call_counter = 1 : ui32, reserved_hbm_bytes = 48 : i64} (%a: tensor<4xf32>) {
    %1 = stablehlo.abs %a : tensor<4xf32>
    mpmd.return %1 : tensor<4xf32>
  } : (!m1) -> !m1
  // Another body: another group. Its name has the phase of its origin
  // (`layer_0` is `layer` with counter 0), and the call keeps `remat`.
  %2 = mpmd.fragment<mesh="m1", origin=["layer_0"(1)]> (%1) {remat} (%a: tensor<4xf32>) {
    %1 = stablehlo.negate %a : tensor<4xf32>
    mpmd.return %1 : tensor<4xf32>
  } : (!m1) -> !m1
  %t = mpmd.transfer %2 : (!m1) -> !m2
  %3 = mpmd.fragment<mesh="m2", origin=["head"], stage=3> (%t) (%a: tensor<4xf32>) {
    %1 = stablehlo.abs %a : tensor<4xf32>
    mpmd.return %1 : tensor<4xf32>
  } : (!m2) -> !m2
  func.return %3 : !m2
}

// The group's function: the largest reserved bytes of its fragments, the
// mesh of the topology, shardings of sharded arguments and results.
// CHECK:      func.func @p0_layer_0_fwd_calls0to1.main(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME:   attributes {mesh_shape = #sdy.mesh<["x"=2]>, reserved_hbm_bytes = 48 : i64}
// CHECK-NEXT:   stablehlo.abs %arg0
// CHECK-NEXT:   return
// CHECK:      func.func @p1_layer_0_bwd.main(
// CHECK-NEXT:   stablehlo.negate
// CHECK:      func.func @p2_stage3_fwd.main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// CHECK-SAME:   -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// CHECK-NOT:  mpmd.fragment<
