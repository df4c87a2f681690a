// RUN: shardkit-opt %s -split-input-file -sdy-propagation-pipeline=dedup-functions-fully=true | FileCheck %s --check-prefixes=DEDUP,BOTH
// RUN: shardkit-opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s --check-prefixes=FLAT,BOTH

sdy.mesh @mesh = <["x"=2, "y"=2]>

// @scale is called twice. With dedup-functions-fully it stays one function:
// its body's "y" (from the constraint, applied to the multiply) reaches both
// calls' operands through its argument's edge, and their results through
// the results' edges; @main's argument and results follow.
// DEDUP-LABEL: func @main(
// DEDUP-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}
// DEDUP-SAME:    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// DEDUP-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// DEDUP-NEXT:    %[[C0:.*]] = call @scale(%[[NEG]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// DEDUP-NEXT:    %[[C1:.*]] = call @scale(%[[C0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// DEDUP-NEXT:    return %[[C0]], %[[C1]]
// DEDUP-LABEL: func private @scale(
// DEDUP-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// DEDUP-SAME:    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// DEDUP-NEXT:    stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// DEDUP-NOT:   sdy.func_data_flow_edge
// DEDUP-NOT:   func.func

// Without it each call is inlined as a named computation for propagation and
// becomes a function again afterwards: both copies are sharded alike, so one
// function is left.
// FLAT-LABEL: func @main(
// FLAT-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}
// FLAT-NEXT:    %[[NEG:.*]] = stablehlo.negate %arg0
// FLAT-NEXT:    %[[C0:.*]] = call @scale(%[[NEG]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// FLAT-NEXT:    %[[C1:.*]] = call @scale(%[[C0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// FLAT-LABEL: func private @scale(
// FLAT-SAME:    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// FLAT-SAME:    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
// FLAT-NOT:    sdy.named_computation
// FLAT-NOT:   func.func
func.func @main(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
  %1 = call @scale(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = call @scale(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %1, %2 : tensor<8x4xf32>, tensor<8x4xf32>
}

func.func private @scale(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The two calls want different shardings of @pick's result: the second
// one's user adds "y" on the other dimension. Either way @pick keeps the
// sharding its body gives (without dedup-functions-fully the copy the
// second call got ends up sharded like @pick and merges back into it), and
// the second call gets a reshard to what propagation gave it.
// BOTH-LABEL: func @main
// BOTH-NEXT:    %[[C0:.*]] = call @pick(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// BOTH-NEXT:    %[[C1:.*]] = call @pick(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// BOTH-NEXT:    %[[R:.*]] = sdy.reshard %[[C1]] <@mesh, [{"x"}, {"y"}]>
// BOTH-NEXT:    stablehlo.abs %[[R]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// BOTH-LABEL: func private @pick(
// BOTH-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = call @pick(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @pick(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

func.func private @pick(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
