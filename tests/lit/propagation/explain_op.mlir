// --explain-op draws the factor table of one op before and after one
// propagation step of that op alone, after the passes on the command line.
// RUN: shardkit-opt %s --explain-op=stablehlo.dot_general | FileCheck %s
// RUN: shardkit-opt %s --explain-op=%0 --explain-strategy=basic | FileCheck %s --check-prefix=BASIC
// RUN: shardkit-opt %s -sdy-aggressive-propagate --explain-op=%1 | FileCheck %s --check-prefix=AFTER-PASS
// RUN: shardkit-opt %s -sdy-add-data-flow-edges --explain-op=sdy.data_flow_edge | FileCheck %s --check-prefix=EDGE
// RUN: not shardkit-opt %s --explain-op=%9 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK:      factor table of %0 = stablehlo.dot_general in @main
// CHECK-NEXT: rule: ([i, k], [k, j])->([i, j]) {i=8, j=32, k=16} reduction={k}
// CHECK-NEXT: mesh: @mesh = <["a"=2, "b"=2, "c"=2]>
// CHECK-EMPTY:
// CHECK-NEXT: before:
// CHECK-NEXT: | tensor          | i: 8, pass-through | j: 32, pass-through | k: 16, reduction | replicated |
// CHECK-NEXT: |-----------------|--------------------|---------------------|------------------|------------|
// CHECK-NEXT: | operand 0 %arg0 | {"a"}              | -                   | {"b", ?}         |            |
// CHECK-NEXT: | operand 1 %arg1 | -                  | {"c", "a", ?}       | {?}              |            |
// CHECK-NEXT: | result 0 %0     | {?}                | {?}                 | -                |            |
// CHECK-EMPTY:
// CHECK-NEXT: after one aggressive step:
// CHECK:      | operand 1 %arg1 | -                  | {"c", "a", ?}       | {"b", ?}         |            |
// CHECK-NEXT: | result 0 %0     | {?}                | {"c", "a", ?}       | -                |            |
// CHECK-NEXT: updated: operand 1 %arg1 = <@mesh, [{"b", ?}, {"c", "a", ?}]>
// CHECK-NEXT: updated: result 0 %0 = <@mesh, [{?}, {"c", "a", ?}]>

// The basic strategy drops "a" from j: operand 0 uses it for i.
// BASIC:      after one basic step:
// BASIC:      | result 0 %0     | {?}                | {"c", ?}            | -                |            |
// BASIC:      updated: result 0 %0 = <@mesh, [{?}, {"c", ?}]>

// After propagation, the negate has nothing left to do.
// AFTER-PASS:      factor table of %1 = stablehlo.negate in @main
// AFTER-PASS:      after one aggressive step:
// AFTER-PASS:      | result 0 %1  | {?}                | {"c", "a", ?}       |
// AFTER-PASS-NEXT: updated: nothing

// A data-flow edge's rows are its sources and its targets.
// EDGE:      factor table of %{{.*}} = sdy.data_flow_edge in @main
// EDGE:      before:
// EDGE:      | source 0 %arg0 | {"a"}              | {"b", ?}            |
// EDGE-NEXT: | targets %{{.*}}   | {?}                | {?}                 |
// EDGE:      updated: targets %{{.*}} = <@mesh, [{"a", ?}, {"b", ?}]>

// MISSING: error: no op matches --explain-op=%9

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>},
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c", "a", ?}]>}) -> (tensor<8x32xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.negate %0 : tensor<8x32xf32>
  %2 = stablehlo.optimization_barrier %arg0 : tensor<8x16xf32>
  return %1, %2 : tensor<8x32xf32>, tensor<8x16xf32>
}
