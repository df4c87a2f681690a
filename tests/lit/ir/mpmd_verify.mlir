// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// mpmd op verifiers whose messages print types: MLIR quotes a type in a
// diagnostic ('tensor<4xf32>'), so these do too.

func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1> : tensor<4xi32>
  // expected-error @+1 {{Type mismatch. Expected call operand to have type 'tensor<4xf32>' but got 'tensor<4xi32>'}}
  %0 = mpmd.call @body(%arg0, %c) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @body(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  return %arg1 : tensor<4xf32>
}

// -----

func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{Type mismatch. Expected call result to have type 'tensor<4xf32>' but got 'tensor<4xi32>'}}
  %0 = mpmd.call @body(%arg0) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func private @body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{call_counter must be an uint32, got 'i8'}}
  %0 = mpmd.call @body(%arg0) {call_counter = 3 : i8} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

// Only an integer call_counter is checked.
func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.call @body(%arg0) {call_counter = "three"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mpmd.call @body(%0) {call_counter = 3 : ui32} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

func.func private @body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

!a = !mpmd.mesh_tensor<"a", tensor<4x8xf32>>
!b = !mpmd.mesh_tensor<"b", tensor<8x4xf32>>
func.func @transfer_types(%arg0: !a) -> !b
    attributes {"topology"=#mpmd.topology<<"a": <["x"=2]>>, <"b": <["x"=2]>>>} {
  // expected-error @+1 {{cannot perform transfer between given types '!mpmd.mesh_tensor<"a", tensor<4x8xf32>>' and '!mpmd.mesh_tensor<"b", tensor<8x4xf32>>': global tensor types are different}}
  %0 = mpmd.transfer %arg0 : (!a) -> !b
  func.return %0 : !b
}

// -----

!a = !mpmd.mesh_tensor<"a", tensor<4x8xf32>>
func.func @assign_types(%arg0: tensor<8x4xf32>) -> !a
    attributes {"topology"=#mpmd.topology<<"a": <["x"=2]>>>} {
  // expected-error @+1 {{mismatch between the given local type 'tensor<8x4xf32>' and mesh_type ranked tensor type: 'tensor<4x8xf32>'}}
  %0 = mpmd.assign %arg0 : (tensor<8x4xf32>) -> !a
  func.return %0 : !a
}

// -----

!a = !mpmd.mesh_tensor<"a", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>
func.func @assign_sharded(%arg0: tensor<4x8xf32>) -> !a
    attributes {"topology"=#mpmd.topology<<"a": <["x"=2]>>>} {
  // expected-error @+1 {{MeshTensorType should be fully replicated: '!mpmd.mesh_tensor<"a", tensor<4x8xf32>, sharding=<@mesh, [{"x"}, {?}]>>'}}
  %0 = mpmd.assign %arg0 : (tensor<4x8xf32>) -> !a
  func.return %0 : !a
}

// -----

!a = !mpmd.mesh_tensor<"a", tensor<4xf32>>
func.func @fragment_block_type(%arg0: !a) -> !a
    attributes {"topology"=#mpmd.topology<<"a": <["x"=2]>>>} {
  // expected-error @+1 {{expected the type of the block argument to be global tensor type operand: 'tensor<4xf32>', got: 'tensor<2xf32>'}}
  %0 = mpmd.fragment<mesh="a", origin=["f"]> (%arg0) (%arg1: tensor<2xf32>) {
    mpmd.return %arg1 : tensor<2xf32>
  } : (!a) -> !a
  func.return %0 : !a
}

// -----

func.func @for_unroll(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{number of iterations 10 isn't divisible by unroll factor 3}}
  %0 = mpmd.for (%arg0) {iterations = 10 : ui32, unroll_factor = 3 : ui32} (%arg1: tensor<4xf32>, %index: tensor<ui32>) {
    mpmd.return %arg1 : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @for_no_iterations(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{number of iterations must be greater than zero}}
  %0 = mpmd.for (%arg0) {iterations = 0 : ui32, unroll_factor = 1 : ui32} (%arg1: tensor<4xf32>, %index: tensor<ui32>) {
    mpmd.return %arg1 : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @for_index_type(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{index must have a 32-bit integer rank-0 tensor type}}
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 1 : ui32} (%arg1: tensor<4xf32>, %index: tensor<f32>) {
    mpmd.return %arg1 : tensor<4xf32>
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

!a = !mpmd.mesh_tensor<"a", tensor<4xf32>>
func.func @fragment_call_missing(%arg0: !a) -> !a
    attributes {"topology"=#mpmd.topology<<"a": <["x"=2]>>>} {
  // expected-error @+1 {{'nowhere' does not reference a valid function}}
  %0 = mpmd.fragment_call<mesh="a", origin=["f"]> @nowhere(%arg0) : (!a) -> !a
  func.return %0 : !a
}
