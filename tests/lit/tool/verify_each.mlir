// The module is verified after each pass, as mlir-opt's -verify-each does:
// a pass that turns a valid module into an invalid one ends in the
// verifier's located error and exit 1, not in invalid output. Here the edge
// on the manual computation's result names no manual axis, so sinking it
// into out_shardings leaves a result whose local shape no longer matches.
// With -verify-each=false the pass's output is printed unchecked. Into a
// file the last verification runs beside the printing: the same error, and
// the file keeps what it held; a valid module is written as to stdout.

// RUN: not shardkit-opt %s -sdy-propagation-pipeline 2>&1 | FileCheck %s
// RUN: shardkit-opt %s -sdy-propagation-pipeline -verify-each=false | FileCheck %s --check-prefix=UNCHECKED
// RUN: not shardkit-opt %s -verify-each=maybe 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: T=$(mktemp -d) && echo kept > $T/out.mlir \
// RUN:   && ! shardkit-opt %s -sdy-propagation-pipeline -o $T/out.mlir 2> $T/err \
// RUN:   && FileCheck %s < $T/err && [ "$(cat $T/out.mlir)" = kept ] \
// RUN:   && shardkit-opt %s -o $T/valid.mlir && shardkit-opt %s | cmp - $T/valid.mlir \
// RUN:   && [ -z "$(ls $T | grep tmp)" ] && rm -rf $T

// CHECK: verify_each.mlir:[[# @LINE + 7]]:3: error: 'sdy.manual_computation' op result shape, corresponding sharding, and region result shape at index 0 must match. Expected local shape 'tensor<8x4xf32>', actual local shape 'tensor<4x4xf32>'
// CHECK-NOT: func.func
// UNCHECKED: out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"a"}
// FLAG: shardkit-opt: error: option '-verify-each' takes true or false, got 'maybe'

sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @manual_result_edge(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x4xf32>) {
    %2 = stablehlo.negate %arg1 : tensor<4x4xf32>
    sdy.return %2 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{?}, {"b", ?}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
