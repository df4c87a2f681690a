// RUN: shardkit-opt %s -mpmd-mark-offloaded-input-output -mpmd-mark-aliasing-and-donation -mpmd-mark-fragment-reserved-memory | FileCheck %s

// A two-stage program: stage 1 on m1 offloads an activation to the host,
// stage 2 on m2 consumes a transferred value. The passes mark host memory,
// then aliasing/donation, then the live bytes per mesh.

!m1 = !mpmd.mesh_tensor<"m1", tensor<8x8xf32>>
!m1_sharded = !mpmd.mesh_tensor<"m1", tensor<8x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<8x8xf32>>

sdy.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %arg0: {{.*}} {jax.buffer_donor = true}
func.func @main(%w: !m1 {jax.buffer_donor = true}, %x: !m1_sharded,
                %y: !m2 {tf.aliasing_output = 1 : i32})
    -> (!m1 {mhlo.memory_kind = "pinned_host"}, !m2)
    attributes {topology = #mpmd.topology<<"m1": <["x"=4]>>, <"m2": <["x"=4]>>>} {
  // %w (256 bytes) is donated by the user and used here for the last time;
  // %x (a quarter of 256 bytes per device) is not marked, so it keeps its
  // buffer. Nothing else is live on m1, so nothing is reserved. The first
  // result is moved to the host.
  // CHECK:      %[[F:.*]]:2 = mpmd.fragment<mesh="m1", origin=["stage1"]> (%arg0, %arg1)
  // CHECK-SAME:   arg_attrs = [{jax.buffer_donor = true}, {}]
  // CHECK-SAME:   res_attrs = [{mhlo.memory_kind = "pinned_host"}, {}]
  // CHECK-SAME:   reserved_hbm_bytes = 0
  %f:2 = mpmd.fragment<mesh="m1", origin=["stage1"]> (%w, %x)
      (%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) {
    %0 = stablehlo.add %a, %b : tensor<8x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<8x8xf32>) -> tensor<1x8x8xf32>
    %2 = stablehlo.custom_call @annotate_device_placement(%1) {
        has_side_effect = true,
        mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}
      } : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x8x8xf32>) -> tensor<8x8xf32>
    mpmd.return %3, %0 : tensor<8x8xf32>, tensor<8x8xf32>
  } : (!m1, !m1_sharded) -> (!m1, !m1)
  // CHECK: %[[T:.*]] = mpmd.transfer %[[F]]#1
  %t = mpmd.transfer %f#1 : (!m1) -> !m2
  // %t is transferred in and used here for the last time: aliased with the
  // result of the same type. %y is marked for aliasing with the function's
  // result 1, this fragment's only result, which %t already aliases: donated.
  // On m2, %y and %t are the operands: 0 reserved.
  // CHECK:      mpmd.fragment<mesh="m2", origin=["stage2"]> (%[[T]], %arg2)
  // CHECK-SAME:   arg_attrs = [{tf.aliasing_output = 0 : i32}, {jax.buffer_donor = true}]
  // CHECK-SAME:   reserved_hbm_bytes = 0
  %g = mpmd.fragment<mesh="m2", origin=["stage2"]> (%t, %y)
      (%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) {
    %0 = stablehlo.multiply %a, %b : tensor<8x8xf32>
    mpmd.return %0 : tensor<8x8xf32>
  } : (!m2, !m2) -> !m2
  func.return %f#0, %g : !m1, !m2
}

// Live values stay counted until their last use; an argument that is not
// donated stays counted to the end.
// CHECK-LABEL: func.func @liveness(
func.func @liveness(%a: !m1, %b: !m1)
    -> (!m1, !m1) attributes {topology = #mpmd.topology<<"m1": <["x"=4]>>>} {
  // CHECK: mpmd.fragment<mesh="m1", origin=["p"]>{{.*}}reserved_hbm_bytes = 256
  %p = mpmd.fragment<mesh="m1", origin=["p"]> (%a)
      (%arg: tensor<8x8xf32>) {
    mpmd.return %arg : tensor<8x8xf32>
  } : (!m1) -> !m1
  // Live: %a, %b, %p; operands %p and %p (once): 512 left.
  // CHECK: mpmd.fragment<mesh="m1", origin=["q"]>{{.*}}reserved_hbm_bytes = 512
  %q = mpmd.fragment<mesh="m1", origin=["q"]> (%p, %p)
      (%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) {
    mpmd.return %arg0 : tensor<8x8xf32>
  } : (!m1, !m1) -> !m1
  // Live: %a, %b, %q (%p is dead); operand %b: 512 left.
  // CHECK: mpmd.fragment<mesh="m1", origin=["r"]>{{.*}}reserved_hbm_bytes = 512
  %r = mpmd.fragment<mesh="m1", origin=["r"]> (%b)
      (%arg: tensor<8x8xf32>) {
    mpmd.return %arg : tensor<8x8xf32>
  } : (!m1) -> !m1
  func.return %q, %r : !m1, !m1
}
