// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// Types are MLIR's builtin types, dialect types (`!dialect.name`) or defined
// aliases; anything else is an error, not a type kept as text.

// expected-error @+1 {{tensor dimensions must be non-negative or '?'}}
func.func @negative(%arg0: tensor<2x-1xf32>) {
  return
}

// -----

// expected-error @+1 {{unknown type 'garbage'}}
func.func @element(%arg0: tensor<2xgarbage>) {
  return
}

// -----

// expected-error @+1 {{unknown type 'g'}}
func.func @complex(%arg0: tensor<2xcomplex<g>>) {
  return
}

// -----

// expected-error @+1 {{undefined symbol alias id 'undefined'}}
func.func @alias(%arg0: !undefined) {
  return
}

// -----

// expected-error @+1 {{undefined symbol alias id 'self'}}
!self = !self

// -----

// expected-error @+1 {{expected '<' after 'tensor'}}
!bare = tensor

// -----

// expected-error @+1 {{undefined symbol alias id 'nothing'}}
func.func @attr_alias(%arg0: tensor<2xf32> {foo = #nothing}) {
  return
}

// -----

// Builtin and dialect types, and defined aliases, are fine.
!t = tensor<2xf32>
#a = "attribute"
func.func @fine(%arg0: !t {foo = #a}, %arg1: tensor<2xcomplex<f32>>,
                %arg2: !stablehlo.token, %arg3: tensor<?x3xui8>,
                %arg4: tensor<2x!quant.uniform<i8:f32, 1.0>>, %arg5: i1,
                %arg6: tensor<*xbf16>, %arg7: tuple<index, f64>) {
  return
}

// Truncated types and aliases at the end of the input.
// RUN: printf 'func.func @f(%%a: tensor<2x' | not shardkit-opt - 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: <stdin>:1:{{[0-9]+}}: error: unbalanced '<'
// RUN: printf '!t = tensor<2xf32' | not shardkit-opt - 2>&1 | FileCheck %s --check-prefix=ALIAS
// ALIAS: <stdin>:1:12: error: unbalanced '<'
// RUN: printf '!t = tensor' | not shardkit-opt - 2>&1 | FileCheck %s --check-prefix=BARE
// BARE: <stdin>:1:6: error: expected '<' after 'tensor'
// RUN: printf '!t = ' | not shardkit-opt - 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: <stdin>:1:6: error: expected type, got end of input
