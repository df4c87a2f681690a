// -sdy-convert-global-to-local on functions, calls and computations: every
// signature and body gets local types; channel handles continue after the
// highest one in the module.
// RUN: shardkit-opt %s -sdy-convert-global-to-local | FileCheck %s

sdy.mesh @m = <["x"=2, "y"=2]>

// The handles start after the module's handle 7.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32>
// CHECK-NEXT: "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>
func.func private @callee(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@m, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A call is rebuilt from its callee and operands: its attributes go, its
// result types stay (converted as types, not as values).
// CHECK-LABEL: func.func @caller
// CHECK-NEXT: %0 = call @callee(%arg0) : (tensor<4xf32>) -> tensor<8xf32>
func.func @caller(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  %0 = func.call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>, some.attr = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A manual computation is inlined: its body, local along the manual axes,
// becomes local along the free ones too. Its collectives group devices of
// the whole mesh.
// CHECK-LABEL: func.func @manual
// CHECK-SAME: (%arg0: tensor<4x2xf32> {{.*}}) -> (tensor<4x4xf32>
// CHECK-NEXT: %0 = stablehlo.negate %arg0 {{.*}} : tensor<4x2xf32>
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x2xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %1 : tensor<4x4xf32>
func.func @manual(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"x"}, {"y"}]>] out_shardings=[<@m, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x4xf32>) {
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>} : tensor<4x4xf32>
    %2 = sdy.all_gather [{}, {"y"}] %1 out_sharding=<@m, [{}, {}]> : tensor<4x4xf32>
    sdy.return %2 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// A named computation stays, local inside and out; it is rebuilt from its
// name, operands and shardings, so other attributes go.
// CHECK-LABEL: func.func @named
// CHECK-NEXT: %0 = sdy.named_computation<"body">(%arg0) in_shardings=[<@m, [{"y"}]>] out_shardings=[<@m, [{"y"}]>] (%arg1: tensor<4xf32>) {
// CHECK-NEXT:   sdy.return %arg1 : tensor<4xf32>
// CHECK-NEXT: } : (tensor<4xf32>) -> tensor<4xf32>
func.func @named(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) {
  %0 = sdy.named_computation<"body">(%arg0) in_shardings=[<@m, [{"y"}]>] out_shardings=[<@m, [{"y"}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } {some.attr = 2 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// An op of an unknown dialect gets its local type; a StableHLO collective
// already in the program is left as it is.
// CHECK-LABEL: func.func @unknown_op_and_channel
// CHECK-NEXT: %0 = "my.op"(%arg0) {{.*}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT: %2 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 10, type = 1>
func.func @unknown_op_and_channel(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) {
  %0 = "my.op"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.all_gather"(%0) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (tensor<8xf32>) -> tensor<16xf32>
  %2 = sdy.all_reduce {"x"} %arg0 out_sharding=<@m, [{"y"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}
