// Propagation through the data-flow edges of stablehlo.while, after
// -sdy-add-data-flow-edges: the edge of result i joins operand i and the body's
// returned value i (sources) with result i and the cond/body arguments i
// (targets). The edge op on the result holds the sharding of all targets.
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// A sharded operand reaches the result and, through the body argument, the
// ops of the body.
// CHECK-LABEL: func @operand_into_body
func.func @operand_into_body(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  // CHECK: stablehlo.while
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c0) : tensor<16x8xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare  LT, %iterArg_0, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    // CHECK: stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {"x", ?}]>]>}
    %1 = stablehlo.negate %iterArg : tensor<16x8xf32>
    %2 = stablehlo.add %iterArg_0, %c1 : tensor<i32>
    stablehlo.return %1, %2 : tensor<16x8xf32>, tensor<i32>
  }
  // CHECK: %[[EDGE:.*]] = sdy.data_flow_edge %{{.*}}#0 sharding=<@mesh, [{"y", ?}, {"x", ?}]> : tensor<16x8xf32>
  // CHECK-NEXT: sdy.data_flow_edge %{{.*}}#1 : tensor<i32>
  // CHECK-NEXT: return %[[EDGE]]
  return %0#0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// A sharding inside the body (on an op whose user has no rule, so nothing
// flows forward) reaches the body argument, hence the edge, and from there
// the while operand (a function argument) and the result.
// CHECK-LABEL: func @body_op_to_argument
// CHECK-SAME:      %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// CHECK-SAME:      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>})
func.func @body_op_to_argument(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c0) : tensor<16x8xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare  LT, %iterArg_0, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.abs %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x8xf32>
    %2 = stablehlo.custom_call @opaque(%1) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<16x8xf32>, tensor<i32>
  }
  // CHECK: sdy.data_flow_edge %{{.*}}#0 sharding=<@mesh, [{"x", ?}, {?}]>
  return %0#0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// The returned value of the body is a source of the edge: its sharding
// reaches the while operand without going through the body argument (whose
// users have no rule).
// CHECK-LABEL: func @body_return_to_operand
func.func @body_return_to_operand(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  // CHECK: %[[NEG:.*]] = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
  %n = stablehlo.negate %arg0 : tensor<16x8xf32>
  %0:2 = stablehlo.while(%iterArg = %n, %iterArg_0 = %c0) : tensor<16x8xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare  LT, %iterArg_0, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.custom_call @opaque(%iterArg) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    // CHECK: stablehlo.sqrt %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
    %2 = stablehlo.sqrt %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<16x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<16x8xf32>, tensor<i32>
  }
  // CHECK: sdy.data_flow_edge %{{.*}}#0 sharding=<@mesh, [{?}, {"y", ?}]>
  return %0#0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// A user of the while result shards the edge, which shards the body (through
// the body argument) and the operand; the token operand has no edge.
// CHECK-LABEL: func @result_user_with_token
// CHECK-SAME:      %arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", ?}, {?}]>}
// CHECK-SAME:      %arg1: !stablehlo.token)
func.func @result_user_with_token(%arg0: tensor<16x8xf32>, %arg1: !stablehlo.token) -> (tensor<16x8xf32>, !stablehlo.token) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg0, %iterArg_1 = %c0) : !stablehlo.token, tensor<16x8xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare  LT, %iterArg_1, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    // CHECK: stablehlo.cosine %iterArg{{[_0-9]+}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", ?}, {?}]>]>}
    %1 = stablehlo.cosine %iterArg_0 : tensor<16x8xf32>
    stablehlo.return %iterArg, %1, %iterArg_1 : !stablehlo.token, tensor<16x8xf32>, tensor<i32>
  }
  // CHECK: %[[EDGE:.*]] = sdy.data_flow_edge %{{.*}}#1 sharding=<@mesh, [{"x", "y", ?}, {?}]>
  // CHECK-NEXT: sdy.data_flow_edge %{{.*}}#2 : tensor<i32>
  // CHECK-NEXT: stablehlo.sine %[[EDGE]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>}
  %2 = stablehlo.sine %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<16x8xf32>
  return %2, %0#0 : tensor<16x8xf32>, !stablehlo.token
}
