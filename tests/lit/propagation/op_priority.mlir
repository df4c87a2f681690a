// Op-priority rounds: first only pass-through ops (elementwise ops, the sdy
// identities, reshape, transpose, data-flow edges, host-offload custom calls;
// dynamic slices forward only) whose operands have no other uses, then those
// ops whatever the uses, then only the pass-through factors of every op
// (broadcast_in_dim backward only), then every factor (broadcast_in_dim still
// backward only), then everything.
// RUN: shardkit-opt %s -split-input-file -sdy-op-priority-propagate | FileCheck %s
// RUN: shardkit-opt %s -split-input-file -sdy-op-priority-propagate=run-op-priority-propagation=false | FileCheck %s --check-prefix=NOPRIO

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The result's "x" on dim 1 flows back through the elementwise chain before
// the matmul (a later round) can put the lhs's "x" on dim 0. Without op
// priorities the matmul, visited first, wins.
// CHECK-LABEL: func @elementwise_before_matmul
// CHECK:       stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// CHECK-NEXT:  stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// NOPRIO-LABEL: func @elementwise_before_matmul
// NOPRIO:      stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @elementwise_before_matmul(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A sharding constraint is an identity, so it takes part in the first round
// like an elementwise op.
// CHECK-LABEL: func @constraint_in_first_round
// CHECK:       stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// CHECK-NEXT:  stablehlo.exponential %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func @constraint_in_first_round(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.exponential %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {"y", ?}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// In the second round the contracting (reduction) factor waits: the rhs's
// "x" on the contracting dim doesn't reach the lhs before the batch-like
// "x" of the result reaches it along the non-contracting dim. Without op
// priorities the contracting factor, visited at the same time, wins.
// CHECK-LABEL: func @pass_through_factor_first
// CHECK-SAME:      %arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
// NOPRIO-LABEL: func @pass_through_factor_first
// NOPRIO-SAME:     %arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}
func.func @pass_through_factor_first(%arg0: tensor<16x32xf32>,
    %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// broadcast_in_dim propagates backward in the second round and forward only
// in the last: the result's "x" on dim 1 reaches %0 before %arg0's "x" on
// dim 0 can come forward (then it conflicts). Without op priorities the first
// broadcast, visited first, forwards %arg0's "x".
// CHECK-LABEL: func @broadcast_backward_first
// CHECK-NEXT:  stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// CHECK-NEXT:  stablehlo.broadcast_in_dim %{{.*}}, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}, {?}]>]>}
// NOPRIO-LABEL: func @broadcast_backward_first
// NOPRIO-NEXT: stablehlo.broadcast_in_dim %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @broadcast_backward_first(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8x4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4x2xf32>
  return %1 : tensor<8x4x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// %arg0 has two uses: the negate and the abs wait for the second round, so
// the sine/exponential chain first takes the second result's "x" on dim 1
// back to the abs. Without op priorities the abs forwards %arg0's "x" on
// dim 0 (from the first result) down the chain.
// CHECK-LABEL: func @shared_operand_waits
// CHECK:       stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// CHECK-NEXT:  stablehlo.exponential %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// NOPRIO-LABEL: func @shared_operand_waits
// NOPRIO:      stablehlo.exponential %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @shared_operand_waits(%arg0: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %2 = stablehlo.exponential %1 : tensor<8x8xf32>
  %3 = stablehlo.sine %2 : tensor<8x8xf32>
  return %0, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
