// A two-layer MLP step: the batch is sharded over "data" and the first
// weight over "model"; propagation shards everything in between.
sdy.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(%x: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                %w1: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                %w2: tensor<256x64xf32>) -> tensor<32x64xf32> {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0]
      : (tensor<32x128xf32>, tensor<128x256xf32>) -> tensor<32x256xf32>
  %a = stablehlo.tanh %h : tensor<32x256xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0]
      : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}
