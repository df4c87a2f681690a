// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// Every known op checks how many operands, results and regions it has, and
// what its types must agree on, before anything else reads it.

func.func @add_three(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.add' op expected 2 operands, but found 3}}
  %0 = stablehlo.add %arg0, %arg0, %arg0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @add_none() -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.add' op expected 2 operands, but found 0}}
  %0 = "stablehlo.add"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @abs_two_results(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.abs' op expected 1 result, but found 2}}
  %0:2 = "stablehlo.abs"(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @constant_operand(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.constant' op requires zero operands}}
  %0 = "stablehlo.constant"(%arg0) {value = dense<1.0> : tensor<2xf32>} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @shapes(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.multiply' op requires the same shape for all operands and results}}
  %0 = stablehlo.multiply %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return
}

// -----

// A dynamic size agrees with any size, and select's predicate may be a
// scalar.
func.func @compatible(%arg0: tensor<2xf32>, %arg1: tensor<?xf32>, %arg2: tensor<i1>) {
  %0 = stablehlo.subtract %arg0, %arg1 : (tensor<2xf32>, tensor<?xf32>) -> tensor<2xf32>
  %1 = stablehlo.select %arg2, %arg0, %0 : tensor<i1>, tensor<2xf32>
  return
}

// -----

func.func @while_without_regions(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.while' op expected 2 regions, but found 0}}
  %0 = "stablehlo.while"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @barrier_types(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op requires result 0 ('tensor<4xf32>') to have the type of operand 0 ('tensor<2xf32>')}}
  %0 = "stablehlo.optimization_barrier"(%arg0) : (tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_odd(%arg0: tensor<2xf32>, %arg1: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op expected an even number of operands (inputs and one init value per input), but found 3}}
  %0 = "stablehlo.reduce"(%arg0, %arg1, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @return_with_result(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'func.return' op requires zero results}}
  %0 = "func.return"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
}

// -----

func.func @group_without_operand() {
  // expected-error @+1 {{'sdy.sharding_group' op expected 1 operand, but found 0}}
  "sdy.sharding_group"() {group_id = 0 : i64} : () -> ()
  return
}

// -----

func.func @atan2_one_operand(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.atan2' op expected 2 operands, but found 1}}
  %0 = "stablehlo.atan2"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
