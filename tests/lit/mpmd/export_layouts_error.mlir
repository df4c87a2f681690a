// RUN: not shardkit-opt %s -mpmd-mark-input-output-with-layouts 2>&1 | FileCheck %s

// An argument returned as a result must keep one layout.

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
#topology = #mpmd.topology<<"m1": <["x"=2]>>>

// CHECK: error: Arg #0 is returned as result #0, but with incompatible layouts: "abc" vs. "xyz"
func.func @incompatible(%a: !m1 {mhlo.layout_mode = "abc"})
    -> (!m1 {mhlo.layout_mode = "xyz"}) attributes {topology = #topology} {
  func.return %a : !m1
}


