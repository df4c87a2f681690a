// mpmd region ops and calls: named computations, fragment calls, loops with
// an index argument, use/source set attributes and memory kinds.
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xui32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xui32>>
!host = !mpmd.mesh_tensor<"m2", tensor<4xui32>, memory_kind="pinned_host">

module {
  func.func public @main(%arg0: !m1, %arg1: tensor<4xui32>) -> (!m2, tensor<ui32>) attributes {
      topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
    %0 = mpmd.fragment_call<mesh="m1", origin=["stage"(1)]> @body(%arg0) : (!m1) -> !m1
    %1 = mpmd.transfer %0 : (!m1) -> !host
    %2 = mpmd.transfer {mpmd.memory_kind = "device"} %1 : (!host) -> !m2
    %3:2 = mpmd.named_computation<"stage"(2)> (%arg1, %arg1) (%a: tensor<4xui32>, %b: tensor<4xui32>) {
      %s = stablehlo.add %a, %b {mpmd.use_set = #mpmd.meshes_with_origins<"m1", "m2"["x"]>} : tensor<4xui32>
      mpmd.return %s, %a : tensor<4xui32>, tensor<4xui32>
    } : (tensor<4xui32>, tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>)
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %4 = mpmd.for (%c) {iterations = 3 : ui32, unroll_factor = 1 : ui32} (%x: tensor<ui32>, %index: tensor<ui32>) {
      %y = stablehlo.add %x, %index {mpmd.src_set = #mpmd.meshes_with_origins<"m1">} : tensor<ui32>
      mpmd.return %y : tensor<ui32>
    } : tensor<ui32>
    return %2, %4 : !m2, tensor<ui32>
  }

  func.func private @body(%arg0: tensor<4xui32>) -> tensor<4xui32> attributes {mesh_shape = #sdy.mesh<["x"=2]>} {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xui32>
    return %0 : tensor<4xui32>
  }
}
