// What -sdy-convert-global-to-local rejects: an op no rule converts (the
// reference's "failed to legalize"), an op whose sharding needs a reshard
// first (its own error, then the failure to legalize), and the invariants
// the passes before it establish (one error each).
// RUN: shardkit-opt %s -split-input-file -sdy-convert-global-to-local -verify-diagnostics

sdy.mesh @m = <["x"=2]>
func.func @reshard_left(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{failed to legalize operation 'sdy.reshard' that was explicitly marked illegal}}
  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @slice_across_shards(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  // expected-error @+2 {{'stablehlo.slice' op dimension 0 is sharded but the slice is not a full slice and requires device communication.}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.slice' that was explicitly marked illegal}}
  %0 = stablehlo.slice %arg0 [2:6] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @slice_other_sharding(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
    -> tensor<8xf32> {
  // expected-error @+2 {{'stablehlo.slice' op dimension 0 has mismatched sharding axes (["x"] vs []). This requires a reshard which should have been handled by previous passes.}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.slice'}}
  %0 = stablehlo.slice %arg0 [0:8] : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @concat_sharded_dim(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
    -> tensor<8xf32> {
  // expected-error @+2 {{'stablehlo.concatenate' op operand 0 is sharded on concatenation dimension 0. This is not supported.}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.concatenate'}}
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=4]>
// expected-error @+1 {{'func.func' op Failed to compute local type due to non-divisible sharding}}
func.func @not_divisible(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<6xf32> {
  return %arg0 : tensor<6xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @dot_without_all_reduce(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>},
                                  %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.dot' op Expected sharded contracting dot to have one user and the user is an sdy.all_reduce.}}
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

sdy.mesh @m = <["x"=2, "y"=2]>
func.func @dot_other_axes(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>},
                          %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.dot' op The axes of the sdy.all_reduce should match the sharded contracting dimension of the dot.}}
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@m, [{}, {}]> : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @scatter_inserted_dim(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg1: tensor<3x1xi64>, %arg2: tensor<3x2xf32>)
    -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  // expected-error @+2 {{'stablehlo.scatter' op sharding operand dimension 0 that is not indexed but in inserted window dimension is not supported.}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.scatter'}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>,
    sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>
  } : (tensor<4x2xf32>, tensor<3x1xi64>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @permute_to_itself(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op Shardy canonicalizer should have removed no-op collective-permute.}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@m, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["x"=2]>
func.func @windowed_across_shards(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}, %arg1: tensor<f32>)
    -> (tensor<7xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  // expected-error @+1 {{'stablehlo.reduce_window' op In op stablehlo.reduce_window dimension 0 is sharded but is not a pass-through dimension.}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
