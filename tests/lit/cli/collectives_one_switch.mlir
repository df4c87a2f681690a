// Collectives and their cost in one switch: the propagation pipeline's
// enable-insert-explicit-collectives (the export pipeline's option) gives
// the all-reduce of a dot whose contracting dimension is sharded, and
// --comm-report prices it.

// RUN: shardkit-opt %s -sdy-propagation-pipeline=enable-insert-explicit-collectives=true --comm-report=%t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: shardkit-opt %s --pass-pipeline='builtin.module(sdy-propagation-pipeline{enable-insert-explicit-collectives=true})' --comm-report=%t2.json > /dev/null
// RUN: diff %t.json %t2.json
// CHECK:      %[[DOT:.*]] = stablehlo.dot_general %arg0, %arg1
// CHECK-NEXT: sdy.all_reduce {"x"} %[[DOT]] out_sharding=<@mesh, [{}, {}]>
// REPORT:      "collectives": [
// REPORT-NEXT:   {"op": "sdy.all_reduce", "loc": "{{.*}}collectives_one_switch.mlir:{{[0-9]+}}:3", "axes": ["x"], "local_bytes_in": 1024, "bytes_received_per_device": 1536},
// REPORT-NEXT:   {"op": "sdy.all_to_all", "loc": "{{.*}}", "axes": ["x"], "local_bytes_in": 256, "bytes_received_per_device": 192}
// REPORT:      "total_bytes_received_per_device": 1728

// The other export options pass through as well.
// RUN: shardkit-opt %s '-sdy-propagation-pipeline=enable-insert-explicit-collectives=true remove-all-gather-reduce-scatter-for-cmv1=true update-non-divisible-input-output-shardings=false' > /dev/null
// RUN: shardkit-opt %s -sdy-propagation-pipeline=avoid-export-for-partitioning=true | FileCheck %s --check-prefix=AVOID
// AVOID-NOT: sdy.all_reduce

// Without the option the pipeline inserts no collective: the report says
// why it is empty, on stderr, and the JSON stays valid.
// RUN: shardkit-opt %s -sdy-propagation-pipeline --comm-report=%t3.json 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTE
// NOTE: warning: 'stablehlo.dot_general' reduces over sharded axes but no sdy.all_reduce follows it, so the report leaves it out; -sdy-insert-explicit-reshards=enable-full-version=true inserts it
// NOTE: shardkit-opt: note: the module holds no collectives, so the report counts 0 bytes; -sdy-propagation-pipeline=enable-insert-explicit-collectives=true, or -sdy-insert-explicit-reshards=enable-full-version=true then -sdy-reshard-to-collectives, inserts them
// RUN: FileCheck %s --check-prefix=EMPTY < %t3.json
// EMPTY: "collectives": [],

// Spelled as passes: as in the reference, the reshard pass inserts the
// all-reduce only with enable-full-version=true; without it the report
// names that option.
// RUN: shardkit-opt %s -sdy-aggressive-propagate -sdy-insert-explicit-reshards -sdy-reshard-to-collectives --comm-report=- 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=NOTE
// RUN: shardkit-opt %s -sdy-aggressive-propagate -sdy-insert-explicit-reshards=enable-full-version=true -sdy-reshard-to-collectives --comm-report=- 2>%t.err \
// RUN:   | FileCheck %s --check-prefix=REPORT
// RUN: not grep . %t.err

// A reshard left unlowered is named too.
// RUN: shardkit-opt %s -sdy-aggressive-propagate -sdy-insert-explicit-reshards=enable-full-version=true --comm-report=- 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=RESHARD
// RUN: shardkit-opt %s -sdy-aggressive-propagate -sdy-insert-explicit-reshards=enable-full-version=true -verify-diagnostics --comm-report=- 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=QUIET --allow-empty
// RESHARD: warning: 'sdy.reshard' is not lowered to collectives, so the report leaves out what it moves; -sdy-reshard-to-collectives lowers it
// QUIET-NOT: warning

sdy.mesh @mesh = <["x"=4]>

func.func @main(%lhs: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %rhs: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %other: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x32xf32>, tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %h = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %h, %other : tensor<8x32xf32>, tensor<8x32xf32>
}
