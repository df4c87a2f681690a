// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// sdy.manual_computation and sdy.named_computation.

sdy.mesh @mesh = <["a"=4, "b"=2]>

func.func @valid(%arg0: tensor<16x8xf32>, %arg1: tensor<8xf32>) -> tensor<16x8xf32> {
  // Manual axes come first in each dimension; free axes follow.
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", "b"}, {}]>, <@mesh, [{?}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8xf32>) {
    // A nested computation over another axis.
    %1 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg4: tensor<2x8xf32>) {
      sdy.return %arg4 : tensor<2x8xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  %2 = sdy.named_computation<"body">(%0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {"b"}]>] (%arg2: tensor<16x8xf32>) {
    %3 = stablehlo.abs %arg2 : tensor<16x8xf32>
    sdy.return %3 : tensor<16x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @no_shardings_no_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @axis_bound_by_parent(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
    // expected-error @+1 {{'sdy.manual_computation' op operates on axis "a" which is already bound by a parent sdy.manual_computation op}}
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg2: tensor<2xf32>) {
      sdy.return %arg2 : tensor<2xf32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @sharding_uses_bound_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
    // expected-error @+1 {{'sdy.sharding_constraint' op operates on axis "a" which is already bound by a parent sdy.manual_computation op}}
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}]> : tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @operand_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op number of op operands and region operands must match. Op has 1 op operands and 2 region operands}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>, %arg2: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @sharding_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand shardings don't match number of values: 2 shardings vs 1 values}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @manual_after_free(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand sharding at index 0 must have all manual axes come before free axes in its dimension sharding at index 0. Saw manual axis "a" after free axis "b"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b", "a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @local_shape(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand shape, corresponding sharding, and region operand shape at index 0 must match. Expected local shape 'tensor<2xf32>', actual local shape 'tensor<8xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @result_local_shape(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op result shape, corresponding sharding, and region result shape at index 0 must match. Expected local shape 'tensor<8xf32>', actual local shape 'tensor<2xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @not_divisible(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand dimension size 6 is not divisible by the manual axes size 4}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<1xf32>) {
    %1 = stablehlo.constant dense<0.0> : tensor<6xf32>
    sdy.return %1 : tensor<6xf32>
  } : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
sdy.mesh @other = <["a"=4, "c"=2]>
func.func @different_meshes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op all in and out shardings must be bound to the same mesh or an empty mesh.}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@other, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
    sdy.return %arg1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @unknown_manual_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op unknown manual axis: "z"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"z"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @bad_in_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand - sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_arg_types(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected the type of the 0'th block argument to match the type of the corresponding operand: 'tensor<4xf32>' vs 'tensor<8xf32>'}}
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<4xf32>) {
    %1 = stablehlo.constant dense<0.0> : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_arg_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{number of block arguments must match the number of operands: 2 != 1}}
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_result_types(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // The result types are inferred from the returned values: two errors.
  // expected-error @+2 {{'sdy.named_computation' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'sdy.named_computation' op failed to infer returned types}}
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = stablehlo.constant dense<0.0> : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @named_in_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op in_shardings shardings don't match number of values: 2 shardings vs 1 values}}
  %0 = sdy.named_computation<"f">(%arg0) in_shardings=[<@mesh, [{}]>, <@mesh, [{}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @named_out_shardings(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op out_shardings - unknown axis name: "x"}}
  %0 = sdy.named_computation<"f">(%arg0) out_shardings=[<@mesh, [{"x"}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
sdy.mesh @other = <["c"=8]>
// A named computation's values may live on different meshes: no error.
func.func @named_values_on_two_meshes(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"f">(%arg0, %arg1) in_shardings=[<@mesh, [{}]>, <@other, [{}]>] (%arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
    sdy.return %arg2 : tensor<8xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_is_isolated(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"f">() () {
    // expected-error @+1 {{use of undeclared SSA value '%arg0'}}
    %1 = stablehlo.abs %arg0 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : () -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
