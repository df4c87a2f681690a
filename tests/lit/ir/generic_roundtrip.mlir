// RUN: shardkit-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: shardkit-opt %s --mlir-print-op-generic | shardkit-opt - | FileCheck %s
// RUN: shardkit-opt %s | shardkit-opt - | FileCheck %s

// Pretty -> generic -> pretty gives the canonical pretty form back. The
// generic form spells properties as `<{...}>`, prints the entry block of
// every region, and names values only by number (no `%cst`).

// GENERIC-LABEL: module {
// GENERIC-NEXT:   "sdy.mesh"() <{mesh = #sdy.mesh<["a"=4, "b"=2]>, sym_name = "mesh"}> : () -> ()
// GENERIC-NEXT:   "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: tensor<8x8xf32>):
// GENERIC-NEXT:     %0 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"a"}, {}]>, out_sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
// GENERIC-NEXT:     %1 = "sdy.manual_computation"(%0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>, manual_axes = #sdy<manual_axes{"b"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>}> ({
// GENERIC-NEXT:     ^bb0(%arg1: tensor<4x8xf32>):
// GENERIC-NEXT:       %3 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
// GENERIC-NEXT:       %4 = "stablehlo.reduce"(%arg1, %3) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT:       ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// GENERIC-NEXT:         %6 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// GENERIC-NEXT:         "stablehlo.return"(%6) : (tensor<f32>) -> ()
// GENERIC-NEXT:       }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// GENERIC-NEXT:       %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x8xf32>
// GENERIC-NEXT:       "sdy.return"(%5) : (tensor<4x8xf32>) -> ()
// GENERIC-NEXT:     }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// GENERIC-NEXT:     %2 = "sdy.propagation_barrier"(%1) <{allowed_direction = #sdy<propagation_direction FORWARD>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
// GENERIC-NEXT:     "func.return"(%2) : (tensor<8x8xf32>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }

// CHECK-LABEL: module {
// CHECK-NEXT:   sdy.mesh @mesh = <["a"=4, "b"=2]>
// CHECK-NEXT:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
// CHECK-NEXT:     %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:     %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg1: tensor<4x8xf32>) {
// CHECK-NEXT:       %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:       %3 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:       sdy.return %4 : tensor<4x8xf32>
// CHECK-NEXT:     } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:     %2 = sdy.propagation_barrier %1 allowed_direction=FORWARD : tensor<8x8xf32>
// CHECK-NEXT:     return %2 : tensor<8x8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

sdy.mesh @mesh = <["a"=4, "b"=2]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%local: tensor<4x8xf32>) {
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    %r = stablehlo.reduce(%local init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %b = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
    sdy.return %b : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=FORWARD : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
