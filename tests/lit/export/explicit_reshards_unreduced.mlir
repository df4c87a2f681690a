// RUN: shardkit-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s

// Unreduced axes in -sdy-insert-explicit-reshards: a value made unreduced
// shards-to-unreduced only the dimension axes that become unreduced (the
// others are resharded away first), and an all-reduce keeps the operand's
// unreduced axes it does not reduce, never the user's.

sdy.mesh @m = <["a"=2, "b"=2, "c"=2]>

// CHECK-LABEL: func @gather_then_sharded_to_unreduced
func.func @gather_then_sharded_to_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"a"}>}) {
  // "b" is not to be unreduced: it is gathered by a reshard, "a" becomes
  // unreduced in place.
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@m, [{"a"}, {}]>
  // CHECK-NEXT: %[[S:.*]] = sdy.sharded_to_unreduced [{"a"}, {}] %[[R]] out_sharding=<@m, [{}, {}], unreduced={"a"}>
  // CHECK-NEXT: return %[[S]]
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @shard_to_unreduced_on_two_dims
func.func @shard_to_unreduced_on_two_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b", "a"}, {"c"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}], unreduced={"a", "c"}>}) {
  // "a", the minor axis of dimension 0, and all of dimension 1 become
  // unreduced in one sharded_to_unreduced.
  // CHECK-NEXT: %[[S:.*]] = sdy.sharded_to_unreduced [{"a"}, {"c"}] %arg0 out_sharding=<@m, [{"b"}, {}], unreduced={"a", "c"}>
  // CHECK-NEXT: return %[[S]]
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @replicate_to_unreduced_after_gather
func.func @replicate_to_unreduced_after_gather(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}], unreduced={"c"}>}) {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@m, [{"a"}, {}]>
  // CHECK-NEXT: %[[U:.*]] = sdy.replicated_to_unreduced {"c"} %[[R]] out_sharding=<@m, [{"a"}, {}], unreduced={"c"}>
  // CHECK-NEXT: return %[[U]]
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_reduce_keeps_only_operand_axes
func.func @all_reduce_keeps_only_operand_axes(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}], unreduced={"b"}>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"a"}>}) {
  // The reduction over the dimension sharded by "a" makes "a" unreduced:
  // the operand is all-reduced over "b" only, and "a" stays a dimension axis.
  %0 = sdy.constant dense<0.0> : tensor<f32>
  // CHECK:      %[[AR:.*]] = sdy.all_reduce {"b"} %arg0 out_sharding=<@m, [{"a"}, {}]>
  // CHECK-NEXT: stablehlo.reduce(%[[AR]] init: %0)
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}], unreduced={"a"}>]>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
