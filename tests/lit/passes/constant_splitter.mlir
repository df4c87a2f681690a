// RUN: shardkit-opt %s -sdy-constant-splitter | FileCheck %s

// Every use but the last gets its own copy of a constant; the last one keeps
// the original.
// CHECK-LABEL: func @two_users
func.func @two_users(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // CHECK-NEXT: %[[COPY:.*]] = sdy.constant dense<2.000000e+00> : tensor<4x4xf32>
  // CHECK-NEXT: %[[ORIG:.*]] = sdy.constant dense<2.000000e+00> : tensor<4x4xf32>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[COPY]]
  // CHECK-NEXT: %[[MUL:.*]] = stablehlo.multiply %[[ORIG]], %[[ADD]]
  // CHECK-NEXT: return %[[ADD]], %[[MUL]]
  %0 = stablehlo.constant dense<2.000000e+00> : tensor<4x4xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<4x4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4x4xf32>
  return %1, %2 : tensor<4x4xf32>, tensor<4x4xf32>
}

// A constant with one use is only turned into an sdy.constant, keeping its
// other attributes.
// CHECK-LABEL: func @one_user
func.func @one_user(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[C:.*]] = sdy.constant {keep = "me"} dense<1.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: stablehlo.subtract %arg0, %[[C]]
  // CHECK-NOT:  constant
  %0 = stablehlo.constant {keep = "me"} dense<1.000000e+00> : tensor<4xf32>
  %1 = stablehlo.subtract %arg0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// The whole sub-computation (iota, elementwise, broadcast) is copied, each
// copy right before its original.
// CHECK-LABEL: func @sub_computation
func.func @sub_computation(%arg0: tensor<3x6xi32>) -> (tensor<3x6xi32>, tensor<3x6xi32>) {
  // CHECK-NEXT: %[[IOTA_COPY:.*]] = stablehlo.iota dim = 0 : tensor<6xi32>
  // CHECK-NEXT: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<6xi32>
  // CHECK-NEXT: %[[NEG_COPY:.*]] = stablehlo.negate %[[IOTA_COPY]]
  // CHECK-NEXT: %[[NEG:.*]] = stablehlo.negate %[[IOTA]]
  // CHECK-NEXT: %[[BCAST_COPY:.*]] = stablehlo.broadcast_in_dim %[[NEG_COPY]], dims = [1]
  // CHECK-NEXT: %[[BCAST:.*]] = stablehlo.broadcast_in_dim %[[NEG]], dims = [1]
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %[[BCAST_COPY]], %arg0
  // CHECK-NEXT: return %[[BCAST]], %[[ADD]]
  %0 = stablehlo.iota dim = 0 : tensor<6xi32>
  %1 = stablehlo.negate %0 : tensor<6xi32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<6xi32>) -> tensor<3x6xi32>
  %3 = stablehlo.add %2, %arg0 : tensor<3x6xi32>
  return %2, %3 : tensor<3x6xi32>, tensor<3x6xi32>
}

// Scalars are split like any other constant.
// CHECK-LABEL: func @scalar_constant
func.func @scalar_constant(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK-NEXT: %[[COPY:.*]] = sdy.constant dense<3.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[ORIG:.*]] = sdy.constant dense<3.000000e+00> : tensor<f32>
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %arg0, %[[COPY]]
  // CHECK-NEXT: return %[[ORIG]], %[[ADD]]
  %0 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
  %1 = stablehlo.add %arg0, %0 : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// A reshape does not keep a sub-computation constant here, so nothing is
// split: the constant has a single user.
// CHECK-LABEL: func @reshape_ends_the_sub_computation
func.func @reshape_ends_the_sub_computation(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK-NEXT: %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<6xf32>
  // CHECK-NEXT: %[[RESHAPE:.*]] = stablehlo.reshape %[[C]]
  // CHECK-NEXT: %[[ADD:.*]] = stablehlo.add %[[RESHAPE]], %arg0
  // CHECK-NEXT: return %[[RESHAPE]], %[[ADD]]
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<6xf32>
  %1 = stablehlo.reshape %0 : (tensor<6xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<2x3xf32>
  return %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>
}

// A use inside a region gets its copy outside the region, before the
// original.
// CHECK-LABEL: func @use_in_while_body
func.func @use_in_while_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[ZERO:.*]] = sdy.constant dense<0> : tensor<i32>
  // CHECK-NEXT: %[[COPY:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
  // CHECK-NEXT: %[[ORIG:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
  // CHECK-NEXT: %[[WHILE:.*]]:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %[[ZERO]])
  // CHECK:      } do {
  // CHECK-NEXT:   stablehlo.add %iterArg, %[[COPY]]
  // CHECK:      stablehlo.multiply %[[WHILE]]#0, %[[ORIG]]
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %c = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
  %1:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %0) : tensor<8xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare  LT, %iterArg_1, %iterArg_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.add %iterArg, %c : tensor<8xf32>
    stablehlo.return %2, %iterArg_1 : tensor<8xf32>, tensor<i32>
  }
  %3 = stablehlo.multiply %1#0, %c : tensor<8xf32>
  return %3 : tensor<8xf32>
}
