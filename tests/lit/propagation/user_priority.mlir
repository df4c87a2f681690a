// User priorities: dimension shardings with priority p0 propagate first, then
// p1, and so on (a dimension without a priority counts as p0). A sharding
// with a lower priority (higher number) is never overwritten by one found in
// an earlier round, and no priority is left in the result.
// RUN: shardkit-opt %s -split-input-file -sdy-user-priority-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// %arg0 (p1) and the result (p0) disagree; the result's sharding wins the
// values in between, while %arg0 keeps its own.
// CHECK-LABEL: func @p0_result_beats_p1_argument
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}
// CHECK-SAME:      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// CHECK-NEXT:  stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>}
func.func @p0_result_beats_p1_argument(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {?}]>},
    %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Swapping the priorities swaps the winner: the p0 argument shards the add,
// the p1 result sharding stays on the function result only.
// CHECK-LABEL: func @p0_argument_beats_p1_result
// CHECK-SAME:      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME:      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// CHECK-NEXT:  stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @p0_argument_beats_p1_result(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p0, {?}]>},
    %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p1, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// Priorities are per dimension: dim 1 (p2) of %arg0 still propagates in its
// round, after dim 0 (p0) of the constraint, and reaches the open dim 1 of
// the constraint; there is no round 1.
// CHECK-LABEL: func @per_dimension_rounds
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"z", ?}]>}
// CHECK-NEXT:  %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"y", ?}, {"z", ?}]>
// CHECK-NEXT:  stablehlo.abs %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {"z", ?}]>]>}
func.func @per_dimension_rounds(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p0, {"z", ?}p2]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y", ?}p0, {?}]> : tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// A p1 dimension is closed and empty in round 0, and its axes count as
// replicated there: the p0 result's "z" reaches %1 but not dim 1 of %0, and
// in round 1 the p1 "z" of %0 stays on dim 0.
// CHECK-LABEL: func @later_round_axes_block_earlier_rounds
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}, {?}]>}
// CHECK-NEXT:  stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}, {?}]>]>}
// CHECK-NEXT:  stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"z", ?}]>]>}
func.func @later_round_axes_block_earlier_rounds(%arg0: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"z", ?}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}p1, {?}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
