// --explain-op=%NAME accepts the input's own value names: the op that
// defined %h in this file, found after the passes by where it began (also
// for a second result name, %b of `%a, %b = ...`, and %p#1).

// RUN: shardkit-opt %s -sdy-aggressive-propagate --explain-op=%h | FileCheck %s --check-prefix=H
// H: factor table of %1 = stablehlo.dot_general in @main
// RUN: shardkit-opt %s -sdy-aggressive-propagate --explain-op=%act | FileCheck %s --check-prefix=T
// T: factor table of %0 = stablehlo.tanh in @main
// RUN: shardkit-opt %s -sdy-aggressive-propagate --explain-op=%p#1 | FileCheck %s --check-prefix=P
// RUN: shardkit-opt %s -sdy-aggressive-propagate --explain-op=%q | FileCheck %s --check-prefix=P
// P: factor table of %2#0, %2#1, %2#2 = stablehlo.sort in @main
// Printed names still select as printed (first).
// RUN: shardkit-opt %s --explain-op=%1 | FileCheck %s --check-prefix=H
// A name the input does not define, or only uses, selects nothing.
// RUN: not shardkit-opt %s --explain-op=%nothing 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not shardkit-opt %s --explain-op=%x 2>&1 | FileCheck %s --check-prefix=NONEX
// NONE: error: no op matches --explain-op=%nothing
// NONEX: error: no op matches --explain-op=%x

sdy.mesh @mesh = <["x"=4]>

func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %act = stablehlo.tanh %x : tensor<8x16xf32>
  %h = stablehlo.dot_general %act, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %p:2, %q = "stablehlo.sort"(%h, %h, %h) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>, %e: tensor<f32>, %f: tensor<f32>):
    %cmp = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %cmp : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
  return %p#1 : tensor<8x16xf32>
}
