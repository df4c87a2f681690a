// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// Shardings on function arguments and results and on op results
// (`sdy.sharding`), checked against the value's type and the mesh.

sdy.mesh @mesh = <["a"=4, "b"=2]>
sdy.mesh @maximal = <[], device_ids=[0]>

// Valid: open and closed dims, priorities, sub-axes, replicated and
// unreduced axes, an inline mesh, a maximal mesh, a token.
func.func @valid(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"b"}>},
                 %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}]>},
                 %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>},
                 %arg3: !stablehlo.token {sdy.sharding = #sdy.sharding<@maximal, []>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}], unreduced={"a"}>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - unknown mesh: @nope}}
func.func @unknown_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nope, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - sharding doesn't match tensor rank: 2 != 1}}
func.func @rank_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op result 0 - unknown axis name: "c"}}
func.func @result_unknown_axis(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - duplicate axis ref: "a"}}
func.func @duplicate_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// A negative priority does not even lex as a priority.
// expected-error @+2 {{expecting priority in format 'p<number>', got: p}}
// expected-error @+1 {{failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`}}
func.func @negative_priority(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p-1]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - dim 0 is empty and closed but has a priority}}
func.func @priority_on_empty_closed(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}p0]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - sub-axis pre-size must be at least 1: "a":(0)2}}
func.func @sub_axis_pre_size(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(0)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - sub-axis sizes must be greater than 1: "a":(1)1}}
func.func @sub_axis_size_one(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)1}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - sub-axis next pre-size 8 doesn't divide the size of the full axis 4: "a":(2)4}}
func.func @sub_axis_not_dividing(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(2)4}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - sub-axis size is equal to the full axis size: "a":(1)4}}
func.func @sub_axis_full_size(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)4}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - two consecutive sub-axes can be merged: "a":(1)2, "a":(2)2}}
func.func @mergeable_sub_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, "a":(2)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - both sub-axis and full-axis are used for axis name: "a"}}
func.func @sub_and_full_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"a":(1)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=8, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - overlapping sub-axes: "a":(1)4, "a":(2)4}}
func.func @overlapping_sub_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)4}, {"a":(2)4}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - replicated axes are not ordered w.r.t. mesh}}
func.func @replicated_not_ordered(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"b", "a"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - duplicate axis ref: "a"}}
func.func @unreduced_overlaps_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"a"}>}) {
  return
}

// -----

sdy.mesh @maximal = <[], device_ids=[0]>
// expected-error @+1 {{'func.func' op arg 0 - a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes}}
func.func @maximal_with_rank(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes, got: <@mesh, [{}]>}}
func.func @token_with_rank(%arg0: !stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - only ranked tensors can have a sharding. type: 'tensor<*xf32>'}}
func.func @unranked(%arg0: tensor<*xf32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// expected-error @+1 {{'func.func' op arg 0 - ops can only have a sharding for a tuple of size 1: 'tuple<tensor<8xf32>, tensor<8xf32>>'}}
func.func @two_tuple(%arg0: tuple<tensor<8xf32>, tensor<8xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// A 1-tuple is sharded like its element.
func.func @one_tuple(%arg0: tuple<tensor<8xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
// A dimension of size 0 takes any axes (0 is divisible by every sharded
// size), also where divisibility is checked (a manual computation's body).
func.func @zero_size_dim(%arg0: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}, {}]>]>} : tensor<0x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a", "b"} (%arg1: tensor<0x4xf32>) {
    sdy.return %arg1 : tensor<0x4xf32>
  } : (tensor<0x8xf32>) -> tensor<0x8xf32>
  return %1 : tensor<0x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @count_mismatch(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op result shardings don't match number of values: 2 shardings vs 1 values}}
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @second_result(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'test.two' op result 1 - unknown axis name: "z"}}
  %0:2 = "test.two"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"z"}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}

// -----

func.func @wrong_attr_kind(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op should have a sharding attribute of type TensorShardingPerValueAttr}}
  %0 = stablehlo.abs %arg0 {sdy.sharding = 1 : i64} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op arg 0 - should have a sharding attribute of type TensorShardingAttr}}
func.func @arg_wrong_attr_kind(%arg0: tensor<8xf32> {sdy.sharding = "x"}) {
  return
}
