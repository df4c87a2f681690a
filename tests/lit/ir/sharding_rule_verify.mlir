// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// `sdy.sharding_rule` on any op, checked against the op's operand and result
// types.

func.func @valid(%arg0: tensor<2x8xf32>, %arg1: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=2, j=4, k=8} reduction={k}>} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.reshape %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>} : (tensor<2x4xf32>) -> tensor<8xf32>
  %2 = stablehlo.reshape %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4} need_replication={j} blocked_propagation={i}>} : (tensor<8xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}

// -----

func.func @operand_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op number of operands and mappings must match: 1 != 2}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @mapping_rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op operand - mapping rank must match: 2 != 1}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=1}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @dynamic_shape(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.abs' op operand - expected a ranked tensor with a static shape}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @factor_reused(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op operand - cannot reuse factors for the same tensor value (factor 'i' at dim 1)}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, i])->([i, i]) {i=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @size_one_in_compound(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op operand - dim mapping can't have a factor of size 1 if there are multiple factors (factor 'j' at dim 0)}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([ij]) {i=8, j=1}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unused_factor(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op has factor j=2 that isn't used in operand and result mappings}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8, j=2}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @reduction_in_result(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op reduction factor cannot be in result mappings (factor 'i' in result 0)}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8} reduction={i}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @factor_in_two_sets(%arg0: tensor<8x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'test.reduce' op a factor can only be in one of the reduction, need replication, or permutation factor sets (factor 'j')}}
  %0 = "test.reduce"(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=4} reduction={j} need_replication={j}>} : (tensor<8x4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unsorted_special(%arg0: tensor<8x4x2xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'test.reduce' op indices of special factors must be sorted (reduction)}}
  %0 = "test.reduce"(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i]) {i=8, j=4, k=2} reduction={k, j}>} : (tensor<8x4x2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @not_a_rule(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.abs' op should have a sharding rule attribute of type OpShardingRuleAttr}}
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = "rule"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
