// Calls and control flow: func.call, while, if, case (an out-of-range index
// takes the last branch), tuples, optimization_barrier, map, gather / scatter,
// and the sdy ops of a global program. The last chunk is the twin whose wrong expectations must be
// reported.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @twice(%x: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.add %x, %x : tensor<i32>
  return %0 : tensor<i32>
}
func.func @main() {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %t = func.call @twice(%c) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %t, dense<6> : tensor<i32>
  // Sum 0..9 with a while loop.
  %z = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %w:2 = stablehlo.while(%i = %z, %s = %z) : tensor<i32>, tensor<i32>
   cond {
    %lt = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s2 = stablehlo.add %s, %i : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %s2 : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %w#1, dense<45> : tensor<i32>
  %p = stablehlo.constant dense<false> : tensor<i1>
  %if = "stablehlo.if"(%p) ({
    stablehlo.return %one : tensor<i32>
  }, {
    stablehlo.return %ten : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  check.expect_eq_const %if, dense<10> : tensor<i32>
  %idx = stablehlo.constant dense<7> : tensor<i32>
  %case = "stablehlo.case"(%idx) ({
    stablehlo.return %one : tensor<i32>
  }, {
    stablehlo.return %ten : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %case, dense<10> : tensor<i32>
  %tup = stablehlo.tuple %one, %ten : tuple<tensor<i32>, tensor<i32>>
  %e = stablehlo.get_tuple_element %tup[1] : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
  check.expect_eq_const %e, dense<10> : tensor<i32>
  %ob:2 = stablehlo.optimization_barrier %one, %ten : tensor<i32>, tensor<i32>
  check.expect_eq_const %ob#0, dense<1> : tensor<i32>
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %m = "stablehlo.map"(%v, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.multiply %a, %b : tensor<i32>
    stablehlo.return %p : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %m, dense<[1, 4, 9]> : tensor<3xi32>
  return
}

// -----

func.func @main() {
  // gather rows 2 and 0 (the index 5 clamps to 2).
  %op = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %idx = stablehlo.constant dense<[[5], [0]]> : tensor<2x1xi32>
  %g = "stablehlo.gather"(%op, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>, indices_are_sorted = false} : (tensor<3x2xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %g, dense<[[5, 6], [1, 2]]> : tensor<2x2xi32>
  // scatter-add into rows 1 and 1 again; an index out of range is dropped.
  %upd = stablehlo.constant dense<[[10, 20], [30, 40], [50, 60]]> : tensor<3x2xi32>
  %si = stablehlo.constant dense<[[1], [1], [9]]> : tensor<3x1xi32>
  %s = "stablehlo.scatter"(%op, %si, %upd) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %sum = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %sum : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<3x2xi32>, tensor<3x1xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %s, dense<[[1, 2], [43, 64], [5, 6]]> : tensor<3x2xi32>
  // A batching dimension: row b takes element idx[b] of operand row b.
  %bi = stablehlo.constant dense<[[1], [0], [1]]> : tensor<3x1xi32>
  %bg = "stablehlo.gather"(%op, %bi) {dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>, indices_are_sorted = false} : (tensor<3x2xi32>, tensor<3x1xi32>) -> tensor<3xi32>
  check.expect_eq_const %bg, dense<[2, 3, 6]> : tensor<3xi32>
  return
}

// -----

// A global program's sdy ops leave its values as they are.
sdy.mesh @mesh = <["x"=2]>
func.func @main() {
  %c = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = sdy.all_slice [{"x"}] %c out_sharding=<@mesh, [{"x"}]> : tensor<4xi32>
  %1 = sdy.reshard %0 <@mesh, [{}]> : tensor<4xi32>
  %2 = sdy.all_gather [{}] %1 out_sharding=<@mesh, [{}]> : tensor<4xi32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"x"}]> : tensor<4xi32>
  check.expect_eq_const %3, dense<[1, 2, 3, 4]> : tensor<4xi32>
  return
}

// -----

func.func @main() {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %w:2 = stablehlo.while(%i = %z, %s = %z) : tensor<i32>, tensor<i32>
   cond {
    %lt = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %s2 = stablehlo.add %s, %i : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %s2 : tensor<i32>, tensor<i32>
  }
  // One iteration more (0..10).
  // CHECK: control.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 45 (actual) vs 55 (expected) at index []
  check.expect_eq_const %w#1, dense<55> : tensor<i32>
  %idx = stablehlo.constant dense<-1> : tensor<i32>
  %case = "stablehlo.case"(%idx) ({
    stablehlo.return %one : tensor<i32>
  }, {
    stablehlo.return %ten : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  // CHECK: control.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 10 (actual) vs 1 (expected) at index []
  check.expect_eq_const %case, dense<1> : tensor<i32>
  %op = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %gi = stablehlo.constant dense<[[5], [0]]> : tensor<2x1xi32>
  %g = "stablehlo.gather"(%op, %gi) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>, indices_are_sorted = false} : (tensor<3x2xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  // CHECK: control.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 5 (actual) vs 0 (expected) at index [0, 0]
  check.expect_eq_const %g, dense<[[0, 0], [1, 2]]> : tensor<2x2xi32>
  return
}
