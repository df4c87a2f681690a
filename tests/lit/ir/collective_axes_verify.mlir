// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// The axes of all_gather, all_slice, all_to_all, reduce_scatter and
// collective_permute: one valid list across dimensions or parameters, one
// list per dimension, sources in order, each applied to the operand.

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @gather_mergeable(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"v"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op two consecutive sub-axes can be merged: "v":(1)2, "v":(2)2}}
  %0 = sdy.all_gather [{"v":(1)2, "v":(2)2}] %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @slice_sub_axis_of_a_used_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // Collective axes are one list: they are not checked against each other
  // sub-axis by sub-axis, so the mismatch is found applying them.
  // expected-error @+1 {{'sdy.all_slice' op result sharding doesn't match expected sharding ["v", "v":(1)2] on dimension 0}}
  %0 = sdy.all_slice [{"v", "v":(1)2}] %arg0 out_sharding=<@m, [{"v"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @reduce_scatter_rank(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op result sharding has rank 2 but collective axes has rank 3}}
  %0 = sdy.reduce_scatter [{}, {"u"}, {}] %arg0 out_sharding=<@m, [{}, {"u"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @all_to_all_sources_descending(%arg0: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {"u"}, {"v"}]>}) -> tensor<8x8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op source dimensions are not sorted in ascending order: 2 appears after 3}}
  %0 = sdy.all_to_all [{"v"}: 3->0, {"u"}: 2->1] %arg0 out_sharding=<@m, [{"v"}, {"u"}, {}, {}]> : tensor<8x8x8x8xf32>
  return %0 : tensor<8x8x8x8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @all_to_all_not_a_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"u", "v"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op can't apply all-to-all axis "u" to operand sharding on dimension 0}}
  %0 = sdy.all_to_all [{"u"}: 0->1] %arg0 out_sharding=<@m, [{"v"}, {"u"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @all_to_all_source_range(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"u"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op source dimension 5 is out of range [0, 2)}}
  %0 = sdy.all_to_all [{"u"}: 5->1] %arg0 out_sharding=<@m, [{}, {"u"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @permute_without_operand_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op collective on operand without sharding}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@m, [{"u"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["u"=2, "v"=4]>
func.func @missing_sharding_reported_first(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // The operand's missing sharding is found before the result's bad one.
  // expected-error @+1 {{'sdy.all_to_all' op collective on operand without sharding}}
  %0 = sdy.all_to_all [{"u"}: 0->0] %arg0 out_sharding=<@m, [{"w"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
