sdy.mesh @mesh = <["a"=2, "b"=4, "c"=3], device_ids=[23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @s(%arg0: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b":(1)2, ?}p2, {"c"}p0], replicated={"b":(2)2}>}, %arg1: tensor<2xf32> {sdy.sharding = #sdy.sharding<mesh<["q"=2]>, [{"q"}]>}) -> (tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"a"}>}) {
  %0 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x [0], contracting_dims = [1] x [1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i]) {i=8, j=12} reduction={j}>} : (tensor<8x12xf32>, tensor<8x12xf32>) -> tensor<8xf32>
  %1 = sdy.sharding_constraint %arg0 <@maximal, []> : tensor<8x12xf32>
  %2 = sdy.all_reduce min {"b":(2)2} %0 out_sharding=<@mesh, [{?}]> : tensor<8xf32>
  return %arg0 : tensor<8x12xf32>
}
