// RUN: shardkit-opt %s -mpmd-simplify-program | FileCheck %s

// A fragment given the same value twice, returning it twice and returning
// an unused value: the duplicate operand, the duplicate result and the
// unused result go, and their in/out shardings go with them, so each list
// keeps one entry per operand or result.

// CHECK-LABEL: func.func @main
// CHECK:       %[[F:.*]] = mpmd.fragment<mesh="m", origin=["f"], in_shardings=[<@mesh, [{"a"}, {}]>], out_shardings=[<@mesh, [{"a"}, {}]>]> (%arg0)
// CHECK-NOT:   in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh
// CHECK:       return %[[F]], %[[F]]
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: !mpmd.mesh_tensor<"m", tensor<4x8xf32>>)
    -> (!mpmd.mesh_tensor<"m", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m", tensor<4x8xf32>>)
    attributes {topology = #mpmd.topology<<"m": <["a"=2]>>>} {
  %0:3 = mpmd.fragment<mesh="m", origin=["f"], in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {}]>], out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}, {}]>, <@mesh, [{}, {}]>]> (%x, %x)
      (%p: tensor<4x8xf32>, %q: tensor<4x8xf32>) {
    %s = stablehlo.add %p, %q : tensor<4x8xf32>
    mpmd.return %s, %s, %p : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  } : (!mpmd.mesh_tensor<"m", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m", tensor<4x8xf32>>)
      -> (!mpmd.mesh_tensor<"m", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m", tensor<4x8xf32>>)
  return %0#0, %0#1 : !mpmd.mesh_tensor<"m", tensor<4x8xf32>>, !mpmd.mesh_tensor<"m", tensor<4x8xf32>>
}
