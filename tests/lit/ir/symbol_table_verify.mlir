// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// The module is a symbol table: one definition per name, symbols only
// directly in it, and calls that match the function they name.

// expected-note @+1 {{see existing symbol definition here}}
func.func @f() {
  return
}
// expected-error @+1 {{redefinition of symbol named 'f'}}
func.func @f() {
  return
}

// -----

// Meshes and functions share one table.
// expected-note @+1 {{see existing symbol definition here}}
sdy.mesh @shared = <["x"=2]>
// expected-error @+1 {{redefinition of symbol named 'shared'}}
func.func private @shared()

// -----

func.func @mesh_inside() {
  // expected-error @+1 {{'sdy.mesh' op expects parent op 'builtin.module'}}
  sdy.mesh @m = <["x"=2]>
  return
}

// -----

func.func @function_inside() {
  // expected-error @+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  "func.func"() ({
    "func.return"() : () -> ()
  }) {function_type = () -> (), sym_name = "inner"} : () -> ()
  return
}

// -----

func.func @missing() {
  // expected-error @+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  call @nowhere() : () -> ()
  return
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @call_a_mesh() {
  // expected-error @+1 {{'func.call' op 'mesh' does not reference a valid function}}
  call @mesh() : () -> ()
  return
}

// -----

func.func @no_callee() {
  // expected-error @+1 {{'func.call' op requires attribute 'callee'}}
  "func.call"() : () -> ()
  return
}

// -----

func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32>

func.func @operands(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = call @g(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32>

func.func @operand_type(%arg0: tensor<3xf32>) {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'tensor<2xf32>', but provided 'tensor<3xf32>' for operand number 0}}
  %0 = call @g(%arg0) : (tensor<3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32>

func.func @results(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'func.call' op incorrect number of results for callee}}
  call @g(%arg0) : (tensor<2xf32>) -> ()
  return
}

// -----

func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32>

func.func @result_type(%arg0: tensor<2xf32>) {
  // expected-error @+1 {{'func.call' op result type mismatch at index 0}}
  %0 = call @g(%arg0) : (tensor<2xf32>) -> tensor<4xf32>
  return
}
