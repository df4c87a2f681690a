// Members of a sharding group end with the same sharding: whenever
// propagation gives one member a new sharding, every other member gets it.
// RUN: shardkit-opt %s -split-input-file -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// %c is cut off from everything by a NONE barrier, yet takes the sharding of
// its group partner %1.
// CHECK-LABEL: func @group_crosses_barrier
// CHECK-NEXT:  %[[C:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>}
// CHECK-NEXT:  sdy.propagation_barrier %[[C]] allowed_direction=NONE : tensor<4x4xf32>
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>}
func.func @group_crosses_barrier(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}) -> tensor<4x4xf32> {
  %c = sdy.constant dense<1.0> : tensor<4x4xf32>
  %0 = sdy.propagation_barrier %c allowed_direction=NONE : tensor<4x4xf32>
  %1 = stablehlo.abs %arg0 : tensor<4x4xf32>
  sdy.sharding_group %c group_id=0 : tensor<4x4xf32>
  sdy.sharding_group %1 group_id=0 : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Groups span functions: @second's add takes the sharding @first found.
// CHECK-LABEL: func @first
// CHECK:       stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// CHECK-LABEL: func @second
// CHECK:       stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func @first(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<4x4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4x4xf32>
  sdy.sharding_group %0 group_id=3 : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func @second(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4x4xf32>
  sdy.sharding_group %0 group_id=3 : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// The first member sharded wins: %1 would take "y" from %arg1, but the group
// gives it %0's sharding first, and the add of both keeps it.
// CHECK-LABEL: func @first_member_sharded_wins
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK-NEXT:  stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK-NEXT:  stablehlo.add {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @first_member_sharded_wins(
    %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
    %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}) -> tensor<4x4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4x4xf32>
  %1 = stablehlo.abs %arg1 : tensor<4x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x4xf32>
  sdy.sharding_group %0 group_id=1 : tensor<4x4xf32>
  sdy.sharding_group %1 group_id=1 : tensor<4x4xf32>
  sdy.sharding_group %2 group_id=1 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// A member inside a while body: its sharding reaches the edge (through the
// body's returned value) and the other member outside.
// CHECK-LABEL: func @group_member_in_while_body
// CHECK:       %[[CST:.*]] = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>} dense<2.000000e+00>
// CHECK:       sdy.data_flow_edge %{{.*}}#0 sharding=<@mesh, [{?}, {"x", ?}]>
func.func @group_member_in_while_body(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<4x4xf32> {
  %cst = stablehlo.constant dense<2.0> : tensor<4x4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c0) : tensor<4x4xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare  LT, %iterArg_0, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.multiply %iterArg, %iterArg : tensor<4x4xf32>
    sdy.sharding_group %2 group_id=5 : tensor<4x4xf32>
    stablehlo.return %2, %iterArg_0 : tensor<4x4xf32>, tensor<i32>
  }
  %1 = sdy.data_flow_edge %0#0 : tensor<4x4xf32>
  %3 = sdy.data_flow_edge %0#1 : tensor<i32>
  sdy.sharding_group %cst group_id=5 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Function arguments that are only returned: when a result takes the
// sharding of its returned argument, the argument's group partner takes it
// too.
// CHECK-LABEL: func @returned_arguments
// CHECK-SAME:      %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME:      %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME:      -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
// CHECK-SAME:          tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
func.func @returned_arguments(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                              %arg1: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  sdy.sharding_group %arg0 group_id=7 : tensor<4x4xf32>
  sdy.sharding_group %arg1 group_id=7 : tensor<4x4xf32>
  return %arg0, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// Before propagating, members take the one sharding their sharded members
// agree on, so the constraint's closed sharding is what %2 starts with (and
// the constraint keeps it).
// CHECK-LABEL: func @members_start_in_sync
// CHECK-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0
// CHECK-NEXT:  sdy.sharding_constraint %[[ABS]] <@mesh, [{"x"}]>
// CHECK-NEXT:  stablehlo.abs %[[ABS]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
func.func @members_start_in_sync(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8xf32>
  sdy.sharding_group %2 group_id=0 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Members that start with different shardings keep them: an open constraint
// follows each one and becomes the member instead.
// CHECK-LABEL: func @conflicting_members
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}
// CHECK-SAME:    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}
// CHECK-NEXT:  %[[C1:.*]] = sdy.sharding_constraint %arg1 <@mesh, [{"y", ?}]>
// CHECK-NEXT:  %[[C0:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"y", ?}]>
// CHECK-NEXT:  sdy.sharding_group %[[C0]] group_id=0
// CHECK-NEXT:  sdy.sharding_group %[[C1]] group_id=0
// CHECK-NEXT:  stablehlo.add %[[C0]], %[[C1]]
func.func @conflicting_members(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// A new function result sharding stays the function's: the group of the
// returned value keeps its members alike (the reference would give tanh the
// result's open sharding and split the group).
// CHECK-LABEL: func @func_result_leaves_group_alone
// CHECK-SAME:    -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>})
// CHECK-NEXT:  stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}p1]>]>}
// CHECK-NEXT:  stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}p1]>]>}
func.func @func_result_leaves_group_alone(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}p1]>]>} : tensor<4x2xf32>
  %1 = stablehlo.negate %arg0 : tensor<4x2xf32>
  sdy.sharding_group %0 group_id=0 : tensor<4x2xf32>
  sdy.sharding_group %1 group_id=0 : tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}
