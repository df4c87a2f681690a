// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// The collectives that create or reduce unreduced axes: all_reduce,
// reduce_scatter, sharded_to_unreduced and replicated_to_unreduced. Their
// axes must be a valid, ordered list that leaves the operand's sharding
// alone, and the unreduced axes must move the way each op says.

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>

func.func @valid(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q"}, {}], replicated={"r"}>},
                 %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q":(1)2}, {"p"}], unreduced=max{"r"}>},
                 %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q":(1)2}, {"q":(2)2}]>}) -> tensor<8x8xf32> {
  // r2u may take axes that are replicated explicitly.
  %0 = sdy.replicated_to_unreduced {"p", "r"} %arg0 out_sharding=<@m, [{"q"}, {}], unreduced={"p", "r"}> : tensor<8x8xf32>
  // The minor half of "q" becomes unreduced, in mesh order among the others.
  %1 = sdy.sharded_to_unreduced [{"q":(2)2}, {}] %0 out_sharding=<@m, [{"q":(1)2}, {}], unreduced={"p", "q":(2)2, "r"}> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"p", "r"} %1 out_sharding=<@m, [{"q":(1)2}, {}], unreduced={"q":(2)2}> : tensor<8x8xf32>
  // A max all-reduce reduces max axes and passes the others through.
  %3 = sdy.all_reduce max {"r"} %arg1 out_sharding=<@m, [{"q":(1)2}, {"p"}]> : tensor<8x8xf32>
  %4 = sdy.reduce_scatter max [{}, {}] %arg1 out_sharding=<@m, [{"q":(1)2}, {"p"}], unreduced=max{"r"}> : tensor<8x8xf32>
  // Both halves of "q" become unreduced and merge into the full axis.
  %5 = sdy.sharded_to_unreduced [{"q":(1)2}, {"q":(2)2}] %arg2 out_sharding=<@m, [{}, {}], unreduced={"q"}> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_axes_unordered(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axes are not ordered w.r.t. mesh}}
  %0 = sdy.all_reduce {"r", "p"} %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_axes_mergeable(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op two consecutive sub-axes can be merged: "q":(1)2, "q":(2)2}}
  %0 = sdy.all_reduce {"q":(1)2, "q":(2)2} %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_minor_sub_axis_of_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "q":(2)2 overlaps with operand dimension sharding or replicated axes}}
  %0 = sdy.all_reduce {"q":(2)2} %arg0 out_sharding=<@m, [{"q"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_full_axis_of_dim_sub_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q":(1)2}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "q" overlaps with operand dimension sharding or replicated axes}}
  %0 = sdy.all_reduce {"q"} %arg0 out_sharding=<@m, [{"q":(1)2}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_replicated_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], replicated={"r"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "r" overlaps with operand dimension sharding or replicated axes}}
  %0 = sdy.all_reduce {"r"} %arg0 out_sharding=<@m, [{}], replicated={"r"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_result_unreduced_sub_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"q"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "q":(1)2 overlaps with result unreduced axes}}
  %0 = sdy.all_reduce {"q":(1)2} %arg0 out_sharding=<@m, [{}], unreduced={"q"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_adds_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"p"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op cannot add new unreduced axis 'r'.}}
  %0 = sdy.all_reduce {} %arg0 out_sharding=<@m, [{"p"}], unreduced={"r"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_wrong_kind(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"p"}], unreduced=min{"r"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op cannot reduce 'min' unreduced axes. Expected 'max'.}}
  %0 = sdy.all_reduce max {"r"} %arg0 out_sharding=<@m, [{"p"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
sdy.mesh @n = <["p"=2, "q"=4, "r"=2]>
func.func @all_reduce_other_mesh_name(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"p"}]>}) -> tensor<8xf32> {
  // The meshes are equal, but the shardings name different ones.
  // expected-error @+1 {{'sdy.all_reduce' op operand and result shardings are not equivalent}}
  %0 = sdy.all_reduce {} %arg0 out_sharding=<@n, [{"p"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @reduce_scatter_wrong_kind(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=max{"p"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op cannot reduce 'max' unreduced axes. Expected 'sum'.}}
  %0 = sdy.reduce_scatter [{"p"}] %arg0 out_sharding=<@m, [{"p"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @reduce_scatter_adds_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op cannot add new unreduced axis 'r'.}}
  %0 = sdy.reduce_scatter [{"p"}] %arg0 out_sharding=<@m, [{"p"}], unreduced={"r"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @s2u_max(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"p"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op out_sharding reduction_op must be SUM}}
  %0 = sdy.sharded_to_unreduced [{"p"}] %arg0 out_sharding=<@m, [{}], unreduced=max{"p"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @s2u_not_a_suffix(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"p", "q"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op can't apply shard-to-unreduce axis "q":(1)2 to operand sharding on dimension 0}}
  %0 = sdy.sharded_to_unreduced [{"q":(1)2}] %arg0 out_sharding=<@m, [{"p"}], unreduced={"q":(1)2}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @s2u_unreduced_missing(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"p", "q"}], unreduced={"r"}>}) -> tensor<8xf32> {
  // The operand's own unreduced axis "r" must stay.
  // expected-error @+1 {{'sdy.sharded_to_unreduced' op out_unreduced_axes should be in_unreduced_axes + sharded_to_unreduced_axes}}
  %0 = sdy.sharded_to_unreduced [{"q"}] %arg0 out_sharding=<@m, [{"p"}], unreduced={"q"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_without_operand_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op collective on operand without sharding}}
  %0 = sdy.replicated_to_unreduced {"p"} %arg0 out_sharding=<@m, [{}], unreduced={"p"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_max(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op out_sharding reduction_op must be SUM}}
  %0 = sdy.replicated_to_unreduced {"p"} %arg0 out_sharding=<@m, [{}], unreduced=min{"p"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_changes_dims(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q"}]>}) -> tensor<8xf32> {
  // A closed dimension of the operand stays closed.
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op input and output must share the same dimension shardings}}
  %0 = sdy.replicated_to_unreduced {"p"} %arg0 out_sharding=<@m, [{"q", ?}], unreduced={"p"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_no_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op r2u axes must not be empty}}
  %0 = sdy.replicated_to_unreduced {} %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_unordered(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op r2u axes are not ordered w.r.t. mesh}}
  %0 = sdy.replicated_to_unreduced {"q", "p"} %arg0 out_sharding=<@m, [{}], unreduced={"p", "q"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_duplicate(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op duplicate axis ref: "r"}}
  %0 = sdy.replicated_to_unreduced {"r", "r"} %arg0 out_sharding=<@m, [{}], unreduced={"r"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_mergeable(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op two consecutive sub-axes can be merged: "q":(1)2, "q":(2)2}}
  %0 = sdy.replicated_to_unreduced {"q":(1)2, "q":(2)2} %arg0 out_sharding=<@m, [{}], unreduced={"q"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_sub_axis_of_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"q":(2)2}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op r2u axis "q" overlaps with operand dimension sharding}}
  %0 = sdy.replicated_to_unreduced {"q"} %arg0 out_sharding=<@m, [{"q":(2)2}], unreduced={"q":(1)2}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_already_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"q":(1)2}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op r2u axis "q" overlaps with operand unreduced axes}}
  %0 = sdy.replicated_to_unreduced {"q"} %arg0 out_sharding=<@m, [{}], unreduced={"q"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @r2u_result_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"r"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.replicated_to_unreduced' op out_unreduced_axes should be in_unreduced_axes + r2u_axes}}
  %0 = sdy.replicated_to_unreduced {"p"} %arg0 out_sharding=<@m, [{}], unreduced={"p"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @reshard_through_barrier(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=max{"r"}>}) -> tensor<8xf32> {
  // The reshard's source sharding is found through the barrier.
  %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>
  // expected-error @+1 {{'sdy.reshard' op cannot change the reduction operator of kept unreduced axes from max to sum.}}
  %1 = sdy.reshard %0 <@m, [{}], unreduced={"r"}> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
func.func @reshard_kind_of_sub_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=min{"q"}>}) -> tensor<8xf32> {
  // Keeping part of "q" keeps its kind.
  // expected-error @+1 {{'sdy.reshard' op cannot change the reduction operator of kept unreduced axes from min to sum.}}
  %0 = sdy.reshard %arg0 <@m, [{}], unreduced={"q":(2)2}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @m = <["p"=2, "q"=4, "r"=2]>
sdy.mesh @other = <["p"=2, "q"=4, "r"=2], device_ids=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]>
func.func @reshard_other_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=max{"r"}>}) -> tensor<8xf32> {
  // Unreduced axes on different meshes are not compared.
  %0 = sdy.reshard %arg0 <@other, [{}], unreduced={"r"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
