// Tokens have no sharding and are skipped: function results, case results
// (no data-flow edge is made for them). See unsupported_types.mlir for
// dynamic shapes and tuples.
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate -sdy-sink-data-flow-edges | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @token_result_skipped
// CHECK-SAME:      %arg0: !stablehlo.token, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// CHECK-SAME:      -> (!stablehlo.token, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
func.func @token_result_skipped(%arg0: !stablehlo.token, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (!stablehlo.token, tensor<8xf32>) {
  %0 = stablehlo.abs %arg1 : tensor<8xf32>
  return %arg0, %0 : !stablehlo.token, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The token branch values of a case have no edge; the tensor ones do.
// CHECK-LABEL: func @case_with_token
// CHECK-SAME:      %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}
// CHECK:       "stablehlo.case"
// CHECK:       }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"y", ?}]>]>}
func.func @case_with_token(%arg0: tensor<i32>, %arg1: !stablehlo.token,
    %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg3: tensor<8xf32>)
    -> (!stablehlo.token, tensor<8xf32>) {
  %0:2 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1, %arg2 : !stablehlo.token, tensor<8xf32>
  }, {
    stablehlo.return %arg1, %arg3 : !stablehlo.token, tensor<8xf32>
  }) : (tensor<i32>) -> (!stablehlo.token, tensor<8xf32>)
  return %0#0, %0#1 : !stablehlo.token, tensor<8xf32>
}

