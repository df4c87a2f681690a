// RUN: shardkit-opt %s -split-input-file -sdy-import-func-calls | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-import-func-calls=add-data-flow-edges-on-named-computations=false | FileCheck %s --check-prefix=NOEDGE

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Each call becomes a named computation called after its callee's original
// function, with the callee's argument shardings as in_shardings (the
// unsharded argument fully open on the same mesh), the call's sharding as
// out_shardings and the call's other attributes. Both calls of @copy get its
// body (and the nested call of @inner inside it); the callees are erased.
// CHECK-LABEL: func @main(%arg0: tensor<16xf32>)
// CHECK-NEXT:    %[[C0:.*]] = sdy.named_computation<"orig">(%arg0, %arg0) in_shardings=[<@mesh, [{?}]>, <@mesh, [{"y"}]>] out_shardings=[<@mesh, [{"x"}]>] (%arg1: tensor<16xf32>, %arg2: tensor<16xf32>) {
// CHECK-NEXT:      %[[E1:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}]>
// CHECK-NEXT:      %[[E2:.*]] = sdy.data_flow_edge %arg2 sharding=<@mesh, [{"y"}]>
// CHECK-NEXT:      %[[SUB:.*]] = stablehlo.subtract %[[E1]], %[[E2]]
// CHECK-NEXT:      %[[INNER:.*]] = sdy.named_computation<"inner">(%[[SUB]]) (%arg3: tensor<16xf32>) {
// CHECK-NEXT:        %[[E3:.*]] = sdy.data_flow_edge %arg3 : tensor<16xf32>
// CHECK-NEXT:        %[[ABS:.*]] = stablehlo.abs %[[E3]]
// CHECK-NEXT:        sdy.return %[[ABS]]
// CHECK-NEXT:      } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %[[E4:.*]] = sdy.data_flow_edge %[[INNER]] : tensor<16xf32>
// CHECK-NEXT:      sdy.return %[[E4]]
// CHECK-NEXT:    } {backend_config = "cfg", zzz = 1 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %[[E5:.*]] = sdy.data_flow_edge %[[C0]] sharding=<@mesh, [{"x"}]>
// CHECK-NEXT:    %[[C1:.*]] = sdy.named_computation<"orig">(%[[E5]], %arg0) in_shardings=[<@mesh, [{?}]>, <@mesh, [{"y"}]>] (%arg1: tensor<16xf32>, %arg2: tensor<16xf32>) {
// CHECK:           sdy.named_computation<"inner">
// CHECK:         } : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %[[E6:.*]] = sdy.data_flow_edge %[[C1]] : tensor<16xf32>
// CHECK-NEXT:    return %[[E6]]
// CHECK-NOT:   func.func

// NOEDGE-LABEL: func @main(%arg0: tensor<16xf32>)
// NOEDGE-NEXT:    %[[C0:.*]] = sdy.named_computation<"orig">(%arg0, %arg0)
// NOEDGE-NEXT:      %[[SUB:.*]] = stablehlo.subtract %arg1, %arg2
// NOEDGE-NEXT:      %[[INNER:.*]] = sdy.named_computation<"inner">(%[[SUB]]) (%arg3: tensor<16xf32>) {
// NOEDGE-NEXT:        stablehlo.abs %arg3
// NOEDGE:         %[[C1:.*]] = sdy.named_computation<"orig">(%[[C0]], %arg0)
// NOEDGE-NOT:     sdy.data_flow_edge
func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = call @copy(%arg0, %arg0) {zzz = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, backend_config = "cfg"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %1 = call @copy(%0, %arg0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

func.func private @copy(%arg0: tensor<16xf32>, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) attributes {sdy.original_func_name = "orig"} {
  %0 = stablehlo.subtract %arg0, %arg1 : tensor<16xf32>
  %1 = call @inner(%0) : (tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

func.func private @inner(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<16xf32>
  return %0 : tensor<16xf32>
}
