// -sdy-check-collectives runs every chain of collectives on host data and
// fails at the first collective whose result is not what its out sharding
// demands.
// RUN: shardkit-opt %s -split-input-file -sdy-check-collectives -verify-diagnostics

// An all-reduce after an all-gather adds up replicas: the result is twice
// what its out sharding says it is.
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @summed_twice(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  // expected-error @+1 {{does not hold what its out sharding demands}}
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Every collective kind, chained, on a dimension the mesh does not divide.
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @chain(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<6x5xf32> {
  %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<6x5xf32>
  %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<6x5xf32>
  %2 = sdy.sharded_to_unreduced [{}, {"x"}] %1 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}> : tensor<6x5xf32>
  %3 = sdy.reduce_scatter [{}, {"x"}] %2 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<6x5xf32>
  %4 = sdy.all_gather [{"y"}, {"x"}] %3 out_sharding=<@mesh, [{}, {}]> : tensor<6x5xf32>
  %5 = sdy.replicated_to_unreduced {"y"} %4 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<6x5xf32>
  %6 = sdy.all_reduce {"y"} %5 out_sharding=<@mesh, [{}, {}]> : tensor<6x5xf32>
  %7 = sdy.all_slice [{"x"}, {}] %6 out_sharding=<@mesh, [{"x"}, {}]> : tensor<6x5xf32>
  return %7 : tensor<6x5xf32>
}
