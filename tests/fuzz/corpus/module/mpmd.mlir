// The mpmd op forms (registered by the mpmd layer), their generic form, and
// type aliases (`!name = type`), which print as the aliased type.
!local = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
!sharded = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>
!remote = !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>

func.func public @main(%arg0: !local, %arg1: !sharded) -> (!remote, tensor<8x4xf32>) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["y"=4]>>>} {
  %f:2 = mpmd.fragment<mesh="m1", origin=["fwd", "bwd"(2)], stage=3, in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]> (%arg0, %arg1) {tag = "t"} (%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) {
    %sum = stablehlo.add %a, %b : tensor<8x4xf32>
    mpmd.return %sum, %a : tensor<8x4xf32>, tensor<8x4xf32>
  } : (!local, !sharded) -> (!local, !local)
  %empty = mpmd.fragment<mesh="m1", origin=[]> () () {
    %c = stablehlo.constant dense<0.0> : tensor<8x4xf32>
    mpmd.return %c : tensor<8x4xf32>
  } : () -> !local
  %t = mpmd.transfer {note = 1 : i32} %f#0 : (!local) -> !remote
  %u = mpmd.unassign %empty : (!local) -> tensor<8x4xf32>
  %g = mpmd.assign {origin = "user"} %u : (tensor<8x4xf32>) -> !local
  %br = mpmd.broadcast %u : tensor<8x4xf32>
  %r = mpmd.reduce<max> %br, %u : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %n = mpmd.named_tensor %r name="result" : tensor<8x4xf32>
  %call = mpmd.call @helper(%n) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t, %call : !remote, tensor<8x4xf32>
}

func.func private @helper(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}
