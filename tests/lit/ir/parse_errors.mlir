// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// Parse errors are reported at the offending token's line.

func.func @undeclared(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{use of undeclared SSA value '%x'}}
  %0 = stablehlo.abs %x : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @redefinition(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.abs %arg0 : tensor<i32>
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = stablehlo.abs %arg0 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @unknown_pretty_op(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{unknown operation 'stablehlo.not_an_op' (write it in generic form: "stablehlo.not_an_op"(...))}}
  %0 = stablehlo.not_an_op %arg0 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @operand_type(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{operand #0 has type tensor<i32> but the op's signature says tensor<f32>}}
  %0 = "test.op"(%arg0) : (tensor<f32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @result_names(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{operation defines 1 results but was given 2 names}}
  %0:2 = "test.op"(%arg0) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @result_index(%arg0: tensor<i32>) -> tensor<i32> {
  %0:2 = "test.op"(%arg0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  // expected-error @+1 {{'%0#2' does not name a single value (its group has 2 values)}}
  return %0#2 : tensor<i32>
}

// -----

func.func @group_without_index(%arg0: tensor<i32>) -> tensor<i32> {
  %0:2 = "test.op"(%arg0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  // expected-error @+1 {{'%0' does not name a single value (its group has 2 values)}}
  return %0 : tensor<i32>
}

// -----

func.func @second_line_of_an_op(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = "test.op"(%arg0) {a = 1}
  // expected-error @+1 {{expected an element type in 'tensor<3x?x>'}}
      : (tensor<i32>) -> tensor<3x?x>
  return %0 : tensor<i32>
}

// -----

// expected-error @+1 {{integer 123456789012345678901234567890 is out of range}}
module attributes {big = 123456789012345678901234567890} {
}

// -----

// expected-error @+1 {{duplicate attribute 'a'}}
module attributes {a = 1, a = 2} {
}

// -----

func.func @successors(%arg0: tensor<i32>) {
  "test.region"() ({
  ^bb0:
    // expected-error @+1 {{block successors are not supported}}
    "test.br"()[^bb1] : () -> ()
  ^bb1:
    "test.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

module {
  // expected-error @+1 {{nested modules are not supported}}
  module {
  }
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @bad_sharding_syntax(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected ']', got '}'}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

!alias = tensor<8xf32>
// expected-error @+1 {{redefinition of alias '!alias'}}
!alias = tensor<4xf32>

// -----

func.func @isolated(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    // expected-error @+1 {{use of undeclared SSA value '%arg0'}}
    sdy.return %arg0 : tensor<8xf32>
  } : () -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unterminated_region(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unbalanced '{': no matching '}'}}
  %0 = "test.region"() ({
    "test.op"() : () -> ()
  : () -> tensor<8xf32>
