// The small export passes, one at a time.
// RUN: shardkit-opt %s -split-input-file -sdy-remove-sharding-groups | FileCheck %s --check-prefix=GROUPS
// RUN: shardkit-opt %s -split-input-file -sdy-sharding-constraint-to-reshard | FileCheck %s --check-prefix=RESHARD
// RUN: shardkit-opt %s -split-input-file -sdy-drop-sharding-rules | FileCheck %s --check-prefix=RULES
// RUN: shardkit-opt %s -split-input-file -sdy-constant-merger | FileCheck %s --check-prefix=CONST
// RUN: shardkit-opt %s -split-input-file -sdy-constant-or-scalar-merger | FileCheck %s --check-prefix=SCALAR

// GROUPS-LABEL: func @groups
// GROUPS-NEXT:  stablehlo.abs
// GROUPS-NEXT:  return
// RESHARD-LABEL: func @groups
// RESHARD-NEXT:  stablehlo.abs
// RESHARD-NEXT:  sdy.sharding_group
sdy.mesh @mesh = <["x"=2]>
func.func @groups(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The reshard takes the constraint's place, sharding and uses; the constraint
// is gone.
// RESHARD-LABEL: func @constraints
// RESHARD-NEXT:  %[[ABS:.*]] = stablehlo.abs %arg0
// RESHARD-NEXT:  %[[R:.*]] = sdy.reshard %[[ABS]] <@mesh, [{"x", ?}]> : tensor<8xf32>
// RESHARD-NEXT:  %[[NEG:.*]] = stablehlo.negate %[[R]]
// RESHARD-NEXT:  return %[[R]], %[[NEG]]
// GROUPS-LABEL: func @constraints
// GROUPS:       sdy.sharding_constraint
sdy.mesh @mesh = <["x"=2]>
func.func @constraints(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x", ?}]> : tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A custom rule is the user's and stays.
// RULES-LABEL: func @rules
// RULES-NEXT:  stablehlo.abs %arg0 : tensor<8xf32>
// RULES-NEXT:  stablehlo.negate {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>
sdy.mesh @mesh = <["x"=2]>
func.func @rules(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Equal constants with equal shardings in one block merge into the first;
// a different value, a different sharding or another block keeps its own.
// CONST-LABEL: func @constants
// CONST-NEXT:  %[[A:.*]] = sdy.constant dense<1.000000e+00>
// CONST-NEXT:  %[[B:.*]] = sdy.constant dense<2.000000e+00>
// CONST-NEXT:  %[[S:.*]] = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<1.000000e+00>
// CONST-NEXT:  %[[BAR:.*]] = stablehlo.optimization_barrier %[[A]]
// CONST:       } do {
// CONST-NEXT:  sdy.constant dense<1.000000e+00>
// CONST:       return %[[A]], %[[B]], %[[S]], %[[A]]
sdy.mesh @mesh = <["x"=2]>
func.func @constants() -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.constant dense<1.0> : tensor<8xf32>
  %1 = sdy.constant dense<2.0> : tensor<8xf32>
  %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<1.0> : tensor<8xf32>
  %3 = stablehlo.optimization_barrier %0 : tensor<8xf32>
  %4 = stablehlo.while(%iterArg = %3) : tensor<8xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %5 = sdy.constant dense<1.0> : tensor<8xf32>
    stablehlo.return %5 : tensor<8xf32>
  }
  %6 = sdy.constant dense<1.0> : tensor<8xf32>
  return %0, %1, %2, %6 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Broadcasts of the same scalar to the same type merge only in the
// constant-or-scalar merger.
// SCALAR-LABEL: func @scalar_broadcasts
// SCALAR-NEXT:  %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8xf32>
// SCALAR-NEXT:  stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// SCALAR-NEXT:  return %[[B]], %[[B]]
// CONST-LABEL: func @scalar_broadcasts
// CONST-COUNT-3: stablehlo.broadcast_in_dim
func.func @scalar_broadcasts(%arg0: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<4xf32>
}
