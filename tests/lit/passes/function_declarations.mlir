// A function without a body (a private declaration) has argument shardings
// but no argument values: the passes that read a callee's or main's
// argument shardings take them from its attributes, and none of them
// crashes on it (a public declaration is an error: tests/lit/ir/func_verify.mlir).

// RUN: shardkit-opt %s -sdy-insert-explicit-reshards | FileCheck %s --check-prefix=RESHARD
// RUN: shardkit-opt %s -sdy-remove-sub-axes-in-input-output-shardings | FileCheck %s --check-prefix=SUBAXES
// RUN: shardkit-opt %s -sdy-update-non-divisible-input-output-shardings | FileCheck %s --check-prefix=EVEN
// RUN: shardkit-opt %s -sdy-verify-unreduced-axes -sdy-export-pipeline | FileCheck %s --check-prefix=EXPORT

sdy.mesh @m = <["x"=4]>
func.func private @main(tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2, ?}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
func.func private @odd(tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
func.func @caller(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @main(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// RESHARD: %[[R:.*]] = sdy.reshard %arg0 <@m, [{"x":(1)2, ?}]> : tensor<8xf32>
// RESHARD-NEXT: call @main(%[[R]])
// SUBAXES: func.func private @main(tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}]>})
// EVEN: func.func private @odd(tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}]>}) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}]>})
// EXPORT: func.func private @main(tensor<8xf32>
// EXPORT: func.func @caller

