// Rules and propagation: an op's own `sdy.sharding_rule` is used instead of
// the registry's. Without keep-sharding-rules every rule that isn't a custom
// rule is removed afterwards; with it, the rules propagation used stay on the
// ops (the registry's ones are attached).
// RUN: shardkit-opt %s -sdy-basic-propagate | FileCheck %s
// RUN: shardkit-opt %s -sdy-basic-propagate=keep-sharding-rules=true | FileCheck %s --check-prefix=KEEP

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The attached rule maps the operand dims to factors i and j of the one result dim, so
// "x" of the operand (factor i) shards the result.
// CHECK-LABEL: func @attached_rule_used
// CHECK-NEXT:  %[[A:.*]] = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<4x8xf32>
// CHECK-NEXT:  stablehlo.custom_call @mine(%[[A]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=4, j=8}, custom>} : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT:  stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<4x8xf32>
// KEEP-LABEL: func @attached_rule_used
// KEEP-NEXT:   stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>}
// KEEP-NEXT:   stablehlo.custom_call @mine({{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=4, j=8}, custom>}
// KEEP-NEXT:   stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k], [ij, k])->([ij, k]) {i=2, j=2, k=8}>}
func.func @attached_rule_used(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4x8xf32>
  %1 = stablehlo.custom_call @mine(%0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=4, j=8}, custom>} : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = stablehlo.multiply %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k], [ij, k])->([ij, k]) {i=2, j=2, k=8}>} : tensor<4x8xf32>
  return %1, %2 : tensor<32xf32>, tensor<4x8xf32>
}
