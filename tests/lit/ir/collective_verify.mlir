// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// The sdy collectives: operand and result shardings must be related the way
// each collective says.

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
sdy.mesh @other = <["a"=2, "b"=2, "c"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

func.func @valid(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"b"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {"c"}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{}, {"b"}] %0 out_sharding=<@mesh, [{"a"}, {"c", "b"}]> : tensor<8x8xf32>
  %2 = sdy.all_to_all [{"b"}: 1->0] %1 out_sharding=<@mesh, [{"a", "b"}, {"c"}]> : tensor<8x8xf32>
  %3 = sdy.collective_permute %2 out_sharding=<@mesh, [{"b", "a"}, {"c"}]> : tensor<8x8xf32>
  %4 = sdy.collective_permute %3 out_sharding=<@other, [{"b", "a"}, {"c"}]> : tensor<8x8xf32>
  %5 = sdy.sharded_to_unreduced [{"a"}, {}] %3 out_sharding=<@mesh, [{"b"}, {"c"}], unreduced={"a"}> : tensor<8x8xf32>
  %6 = sdy.all_reduce {"a"} %5 out_sharding=<@mesh, [{"b"}, {"c"}]> : tensor<8x8xf32>
  %7 = sdy.reduce_scatter [{}, {"a"}] %6 out_sharding=<@mesh, [{"b"}, {"c", "a"}]> : tensor<8x8xf32>
  %8 = sdy.replicated_to_unreduced {"a"} %6 out_sharding=<@mesh, [{"b"}, {"c"}], unreduced={"a"}> : tensor<8x8xf32>
  return %7 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @gather_without_operand_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op collective on operand without sharding}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
sdy.mesh @mesh2 = <["a"=2, "b"=4]>
func.func @gather_other_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op result mesh does not match operand mesh <["a"=2, "b"=2, "c"=2]>}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh2, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @gather_cannot_apply(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op can't apply gathering axis "a" to operand sharding on dimension 0}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @gather_wrong_result(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op result sharding doesn't match expected sharding ["a"] on dimension 0}}
  %0 = sdy.all_gather [{"b"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @gather_axes_rank(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op result sharding has rank 2 but collective axes has rank 1}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @gather_axes_twice(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op duplicate axis ref: "a"}}
  %0 = sdy.all_gather [{"a"}, {"a"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @slice_wrong_result(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // all_slice may have an operand without a sharding.
  // expected-error @+1 {{'sdy.all_slice' op result sharding doesn't match expected sharding ["a"] on dimension 0}}
  %0 = sdy.all_slice [{"a"}] %arg0 out_sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @slice_result_rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.all_slice [{"a"}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_to_all_empty(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op parameter list is empty}}
  %0 = sdy.all_to_all [] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_to_all_dim_range(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op target dimension 2 is out of range [0, 2)}}
  %0 = sdy.all_to_all [{"a"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_to_all_same_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op overlapping source/target dimensions in all-to-all params: 0}}
  %0 = sdy.all_to_all [{"a"}: 0->0] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_to_all_unsorted(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}]>}) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op overlapping source/target dimensions in all-to-all params: 2}}
  %0 = sdy.all_to_all [{"b"}: 1->2, {"a"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {}, {"a", "b"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_to_all_wrong_result(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op result sharding doesn't match expected sharding ["a"] on dimension 1}}
  %0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_reduce_changes_dims(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op operand and result shardings are not equivalent}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_reduce_overlaps_operand(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "a" overlaps with operand dimension sharding or replicated axes}}
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_reduce_overlaps_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "b" overlaps with result unreduced axes}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @all_reduce_bad_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op duplicate axis ref: "b"}}
  %0 = sdy.all_reduce {"b", "b"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @reduce_scatter_wrong_result(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op result sharding doesn't match expected sharding ["a"] on dimension 0}}
  %0 = sdy.reduce_scatter [{"a"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @permute_changes_shard_count(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op sharded size of result doesn't match operand on dimension 0: 4 != 2}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"a", "b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
sdy.mesh @diff = <["a"=2, "b"=4]>
func.func @permute_mesh_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op result mesh has different axes than operand mesh <["a"=2, "b"=2, "c"=2]>}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@diff, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
sdy.mesh @same = <["a"=2, "b"=2, "c"=2]>
func.func @permute_same_device_order(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op result mesh name is different but same device ids as operand mesh <["a"=2, "b"=2, "c"=2]>}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@same, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @permute_rank(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @sharded_to_unreduced_wrong(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op result sharding doesn't match expected sharding [] on dimension 0}}
  %0 = sdy.sharded_to_unreduced [{"a"}] %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @out_sharding_invalid(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op unknown axis name: "q"}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{"q"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
