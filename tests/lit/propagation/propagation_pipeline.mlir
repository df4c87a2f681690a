// -sdy-propagation-pipeline: the import pipeline, user-priority propagation
// and the export pipeline in one pass.
// RUN: shardkit-opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-propagation-pipeline=keep-sharding-rules=true | FileCheck %s --check-prefix=RULES

// The constraint becomes a reshard, the group disappears, the barrier's
// data-flow edge is sunk back, and every sharding ends closed.
// CHECK-LABEL: func @scaffolding_is_removed
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}
// CHECK-SAME:    %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}
// CHECK-SAME:    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
// CHECK:       %[[MUL:.*]] = stablehlo.multiply %arg1, %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT:  %[[RESHARD:.*]] = sdy.reshard %[[MUL]] <@mesh, [{}, {"y"}]>
// CHECK-NEXT:  stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} %[[RESHARD]]
// CHECK-NOT:   sdy.sharding_group
// CHECK-NOT:   sdy.data_flow_edge
// CHECK-NOT:   ?
// CHECK:       return
// RULES-LABEL: func @scaffolding_is_removed
// RULES:       stablehlo.add {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @scaffolding_is_removed(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x16xf32>
  %1 = stablehlo.multiply %arg1, %c : tensor<8x16xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
  sdy.sharding_group %0 group_id=3 : tensor<8x16xf32>
  %3 = stablehlo.optimization_barrier %2 : tensor<8x16xf32>
  %4 = stablehlo.add %0, %3 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// -----

// The import splits the constant, one copy per user; the copies end with the
// same sharding, so the export merges them again.
// CHECK-LABEL: func @split_constants_merge_back
// CHECK-NEXT:  %[[C:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<1.000000e+00>
// CHECK-NEXT:  stablehlo.add %arg0, %[[C]]
// CHECK-NEXT:  stablehlo.multiply %arg1, %[[C]]
// RULES-LABEL: func @split_constants_merge_back
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @split_constants_merge_back(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x16xf32>
  %1 = stablehlo.multiply %arg1, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// Copies whose shardings differ stay apart.
// CHECK-LABEL: func @differently_sharded_copies_stay
// CHECK-NEXT:  sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT:  sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// RULES-LABEL: func @differently_sharded_copies_stay
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @differently_sharded_copies_stay(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<1.0> : tensor<8x16xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8x16xf32>
  %1 = stablehlo.multiply %arg1, %c : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
