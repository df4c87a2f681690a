// The module the graph-dump render test propagates (its constraint becomes
// a highlighted sdy.reshard).
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] :
      (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
