// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// func.func and func.return.

func.func @valid(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> (tensor<8xf32>, tensor<i32>) {
  return %arg0, %arg1 : tensor<8xf32>, tensor<i32>
}
func.func private @declaration(tensor<8xf32>) -> tensor<8xf32>

// -----

func.func @return_type(%arg0: tensor<8xf32>) -> tensor<8xi32> {
  // expected-error @+1 {{'func.return' op type of return operand 0 ('tensor<8xf32>') doesn't match function result type ('tensor<8xi32>') in function @return_type}}
  return %arg0 : tensor<8xf32>
}

// -----

func.func @return_count(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@return_count) returns 2}}
  return %arg0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op body must end with a 'func.return'}}
func.func @no_return(%arg0: tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
}

// -----

func.func @return_in_nested_region(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // A func.return that is not directly in a function is not checked against
  // one.
  %0 = "test.region"() ({
    "func.return"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : () -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{a function with a body needs named arguments}}
func.func @body_with_unnamed_args(tensor<8xf32>) {
  return
}

// -----

// A declaration is defined elsewhere: it cannot be public (MLIR's symbol
// rule).
sdy.mesh @m = <["x"=4]>
// expected-error @+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @public_declaration(tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
