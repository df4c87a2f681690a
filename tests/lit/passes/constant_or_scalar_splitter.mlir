// RUN: shardkit-opt %s -sdy-constant-or-scalar-splitter | FileCheck %s

// Every non-constant user gets its own copy and the original goes away. An
// elementwise op of constants is itself constant, so its user copies the
// whole sub-computation (one copy of the constant shared by both operands).
// CHECK-LABEL: func @each_user_gets_a_copy
func.func @each_user_gets_a_copy(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  // CHECK-NEXT: %[[C_ADD:.*]] = sdy.constant dense<2.000000e+00>
  // CHECK-NEXT: %[[C_SUB:.*]] = sdy.constant dense<2.000000e+00>
  // CHECK-NEXT: %[[C_RET:.*]] = sdy.constant dense<2.000000e+00>
  // CHECK-NEXT: %[[C_MUL:.*]] = sdy.constant dense<2.000000e+00>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[C_ADD]]
  // CHECK-NEXT: %[[MUL:.*]] = stablehlo.multiply %[[C_MUL]], %[[C_MUL]]
  // CHECK-NEXT: %[[SUB:.*]] = stablehlo.subtract %[[ADD]], %[[C_SUB]]
  // CHECK-NEXT: return %[[C_RET]], %[[MUL]], %[[SUB]]
  %0 = stablehlo.constant dense<2.000000e+00> : tensor<4x4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4x4xf32>
  %2 = stablehlo.multiply %0, %0 : tensor<4x4xf32>
  %3 = stablehlo.subtract %1, %0 : tensor<4x4xf32>
  return %0, %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// Scalars are not sharded, so they are not copied.
// CHECK-LABEL: func @scalar_constant_is_shared
func.func @scalar_constant_is_shared(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK-NEXT: %[[C:.*]] = sdy.constant dense<3.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[C]]
  // CHECK-NEXT: return %[[C]], %[[ADD]]
  %0 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
  %1 = stablehlo.add %arg0, %0 : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// A broadcast of a scalar is split even when the scalar is not constant; each
// operand use gets its own broadcast of the same scalar.
// CHECK-LABEL: func @scalar_expansion
func.func @scalar_expansion(%arg0: tensor<f32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK-NEXT: %[[B0:.*]] = stablehlo.broadcast_in_dim %arg0, dims = []
  // CHECK-NEXT: %[[B1:.*]] = stablehlo.broadcast_in_dim %arg0, dims = []
  // CHECK-NEXT: %[[B2:.*]] = stablehlo.broadcast_in_dim %arg0, dims = []
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %[[B0]], %arg1
  // CHECK-NEXT: %[[MUL:.*]] = stablehlo.multiply %[[B1]], %[[B2]]
  // CHECK-NEXT: return %[[ADD]], %[[MUL]]
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<4x8xf32>
  %2 = stablehlo.multiply %0, %0 : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A broadcast of a non-scalar argument is neither constant nor a scalar
// expansion.
// CHECK-LABEL: func @broadcast_of_tensor_is_kept
func.func @broadcast_of_tensor_is_kept(%arg0: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [0]
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %[[B]]
  // CHECK-NEXT: return %[[B]], %[[NEG]]
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.negate %0 : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A reshape of a constant stays constant.
// CHECK-LABEL: func @reshape_of_iota
func.func @reshape_of_iota(%arg0: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  // CHECK-NEXT: %[[IOTA_0:.*]] = stablehlo.iota dim = 0 : tensor<6xi32>
  // CHECK-NEXT: %[[IOTA_1:.*]] = stablehlo.iota dim = 0 : tensor<6xi32>
  // CHECK-NEXT: %[[R_0:.*]] = stablehlo.reshape %[[IOTA_0]]
  // CHECK-NEXT: %[[R_1:.*]] = stablehlo.reshape %[[IOTA_1]]
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %[[R_0]], %arg0
  // CHECK-NEXT: return %[[R_1]], %[[ADD]]
  %0 = stablehlo.iota dim = 0 : tensor<6xi32>
  %1 = stablehlo.reshape %0 : (tensor<6xi32>) -> tensor<2x3xi32>
  %2 = stablehlo.add %1, %arg0 : tensor<2x3xi32>
  return %1, %2 : tensor<2x3xi32>, tensor<2x3xi32>
}

// Each copy joins the sharding groups of its original; the original and its
// group op are erased.
// CHECK-LABEL: func @sharding_group_follows_copies
func.func @sharding_group_follows_copies(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: sdy.sharding_group %[[C0]] group_id=7
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: sdy.sharding_group %[[C1]] group_id=7
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: %[[SUB:.*]] = stablehlo.subtract %arg0, %[[C1]]
  // CHECK-NEXT: return %[[ADD]], %[[SUB]]
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  sdy.sharding_group %0 group_id=7 : tensor<4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4xf32>
  %2 = stablehlo.subtract %arg0, %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// Constants inside a named computation are split inside it; the computation
// itself is a user of the outer constant.
// CHECK-LABEL: func @named_computation_is_a_scope
func.func @named_computation_is_a_scope(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: %[[OUTER_0:.*]] = sdy.constant dense<5.000000e+00>
  // CHECK-NEXT: %[[OUTER_1:.*]] = sdy.constant dense<5.000000e+00>
  // CHECK-NEXT: %[[NC:.*]] = sdy.named_computation<"body">(%[[OUTER_0]], %arg0)
  // CHECK-NEXT:   %[[INNER_0:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT:   %[[INNER_1:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT:   %[[ADD:.*]] = stablehlo.add %[[INNER_0]], %arg1
  // CHECK-NEXT:   %[[MUL:.*]] = stablehlo.multiply %[[INNER_1]], %[[ADD]]
  // CHECK-NEXT:   sdy.return %[[MUL]]
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[ADD_OUT:.*]] = stablehlo.add %[[NC]], %[[OUTER_1]]
  // CHECK-NEXT: return %[[NC]], %[[ADD_OUT]]
  %c = stablehlo.constant dense<5.000000e+00> : tensor<4xf32>
  %0 = sdy.named_computation<"body">(%c, %arg0) (%arg1: tensor<4xf32>, %arg2: tensor<4xf32>) {
    %1 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    %2 = stablehlo.add %1, %arg1 : tensor<4xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<4xf32>
    sdy.return %3 : tensor<4xf32>
  } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.add %0, %c : tensor<4xf32>
  return %0, %4 : tensor<4xf32>, tensor<4xf32>
}

// A call is a user like any other: it gets its own copy of a constant its
// caller shares; the callee's constants are split in the callee.
// CHECK-LABEL: func @calls_get_their_own_copy
func.func @calls_get_their_own_copy(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<1.000000e+00>
  // CHECK-NEXT: %[[CALL:.*]] = call @callee(%[[C0]])
  // CHECK-NEXT: stablehlo.add %[[CALL]], %[[C1]]
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = call @callee(%c) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %c : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// CHECK-LABEL: func private @callee
func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[C0:.*]] = sdy.constant dense<3.000000e+00>
  // CHECK-NEXT: %[[C1:.*]] = sdy.constant dense<3.000000e+00>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[C0]]
  // CHECK-NEXT: stablehlo.multiply %[[ADD]], %[[C1]]
  %c = stablehlo.constant dense<3.0> : tensor<8xf32>
  %0 = stablehlo.add %arg0, %c : tensor<8xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8xf32>
  return %1 : tensor<8xf32>
}
