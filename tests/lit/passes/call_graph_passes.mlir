// RUN: shardkit-opt %s -split-input-file -sdy-flatten-call-graph | FileCheck %s --check-prefix=FLAT
// RUN: shardkit-opt %s -split-input-file -sdy-pre-order-funcs | FileCheck %s --check-prefix=ORDER
// RUN: shardkit-opt %s -split-input-file -symbol-dce | FileCheck %s --check-prefix=DCE

// @main calls @shared twice and @mid once; @mid calls @shared. Depth first,
// @main's first call keeps @shared; @mid's call gets a copy, and so does
// @main's second call: one counter names all copies (@shared_0 exists).
// FLAT-LABEL: func private @mid
// FLAT-NEXT:    call @shared_1(
// FLAT-LABEL: func @main
// FLAT-NEXT:    call @shared(
// FLAT-NEXT:    call @mid(
// FLAT-NEXT:    call @shared_2(
// FLAT-NEXT:    call @shared_0(
// FLAT-LABEL: func private @shared_1(
// FLAT-SAME:    attributes {sdy.original_func_name = "shared"}
// FLAT-LABEL: func private @shared_2(
// FLAT-SAME:    attributes {sdy.original_func_name = "shared"}

// Callers first: a reverse post-order of the calls (read backwards, each
// function's callees come in call order).
// ORDER:       func @main
// ORDER-NEXT:    call @shared(
// ORDER:       func private @shared_0(
// ORDER:       func private @mid
// ORDER:       func private @shared(
// ORDER:       func private @unused

// Only the private function no one calls goes.
// DCE:       func private @shared(
// DCE:       func private @mid
// DCE:       func @main
// DCE:       func private @shared_0(
// DCE-NOT:   @unused
func.func private @shared(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  return %arg0 : tensor<8xi32>
}

func.func private @mid(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = call @shared(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

func.func @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = call @shared(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
  %1 = call @mid(%0) : (tensor<8xi32>) -> tensor<8xi32>
  %2 = call @shared(%1) : (tensor<8xi32>) -> tensor<8xi32>
  %3 = call @shared_0(%2) : (tensor<8xi32>) -> tensor<8xi32>
  return %3 : tensor<8xi32>
}

func.func private @shared_0(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  return %arg0 : tensor<8xi32>
}

func.func private @unused(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  return %arg0 : tensor<8xi32>
}
