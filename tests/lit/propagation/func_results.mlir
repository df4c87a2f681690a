// Function results take part like an identity op between the returned value
// and the result sharding: before the ops (a result sharding shards the
// returned value) and after them (the returned value's sharding shards the
// result). A private function's results are left alone (they belong to its
// callers), and func.call has no rule.
// RUN: shardkit-opt %s -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @result_to_returned_value
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}
// CHECK-SAME:      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
// CHECK-NEXT:  stablehlo.floor %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func @result_to_returned_value(%arg0: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.floor %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The caller's argument doesn't reach the callee (no rule for func.call; the
// call's result is sharded from its user), and the callee's results stay
// unsharded even though its body is sharded.
// CHECK-LABEL: func @caller
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>})
// CHECK-SAME:      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
// CHECK-NEXT:  %[[CALL:.*]] = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:  stablehlo.ceil %[[CALL]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
func.func @caller(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = call @callee(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.ceil %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: func private @callee
// CHECK-SAME:      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME:      -> tensor<8x8xf32> {
// CHECK-NEXT:  stablehlo.sign %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func private @callee(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.sign %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A result on a maximal mesh pins the returned value's op to one device:
// nothing propagates through it.
sdy.mesh @maximal = <[], device_ids=[0]>
// CHECK-LABEL: func @maximal_result
// CHECK-SAME:      %arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT:  stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>}
func.func @maximal_result(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
