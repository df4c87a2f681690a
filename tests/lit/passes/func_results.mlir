// RUN: shardkit-opt %s -split-input-file -sdy-propagate-sharding-from-func-to-call | FileCheck %s --check-prefix=TOCALL
// RUN: shardkit-opt %s -split-input-file -sdy-propagate-to-func-results | FileCheck %s --check-prefix=RESULTS
// RUN: shardkit-opt %s -split-input-file -sdy-insert-func-call-reshards | FileCheck %s --check-prefix=RESHARD

sdy.mesh @mesh = <["x"=2, "y"=4]>

// A call without shardings takes its callee's result shardings; a call with
// some keeps them.
// TOCALL-LABEL: func @main
// TOCALL-NEXT:    %0:2 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, [{"y"}, {}]>]>}
// TOCALL-NEXT:    %1:2 = call @f(%0#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>}

// The callee's results take the shardings of what it returns: the abs's, and
// none for the unsharded argument. @main is left alone.
// RESULTS-LABEL: func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// RESULTS-LABEL: func private @f(%arg0: tensor<8x8xf32>)
// RESULTS-SAME:    -> (tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})

// The first call gives no sharding: it takes @f's. The second is sharded
// unlike @f on both results: it says what @f gives, and a reshard right
// after it (the last result's first) gives its users what they expected.
// RESHARD-LABEL: func @main
// RESHARD-NEXT:    %0:2 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>, <@mesh, [{"y"}, {}]>]>}
// RESHARD-NEXT:    %1:2 = call @f(%0#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{"y"}, {}]>]>}
// RESHARD-NEXT:    %2 = sdy.reshard %1#1 <@mesh, [{}, {}]>
// RESHARD-NEXT:    %3 = sdy.reshard %1#0 <@mesh, [{"x"}, {}]>
// RESHARD-NEXT:    return %3, %2
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = call @f(%arg0) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %1:2 = call @f(%0#0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %1#0, %1#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

func.func private @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32>
  return %arg0, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}
