// -sdy-pad-for-divisibility's errors: function IO that is not divisible, a
// slice that cannot widen without another device's data.
// RUN: shardkit-opt %s -split-input-file -sdy-pad-for-divisibility -verify-diagnostics

sdy.mesh @m3 = <["a"=3]>

// expected-error @+1 {{'func.func' op argument #0 has a non-divisible sharding. Shardy expects function IO to be divisible.}}
func.func @arg_not_divisible(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}]>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

sdy.mesh @m3 = <["a"=3]>

func.func @slice_needs_data(%arg0: tensor<9xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}]>}) -> tensor<7xf32> {
  // expected-error @+1 {{'stablehlo.slice' op dimension 0 of the slice cannot be padded for divisibility without communication.}}
  %0 = stablehlo.slice %arg0 [1:8] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}]>]>} : (tensor<9xf32>) -> tensor<7xf32>
  %1 = sdy.all_gather [{"a"}] %0 out_sharding=<@m3, [{}]> : tensor<7xf32>
  return %1 : tensor<7xf32>
}
