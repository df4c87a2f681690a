// --pass-pipeline takes MLIR's textual pipeline: the same passes and options
// as the -PASS flags, with or without the builtin.module(...) wrapper.

// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-basic-propagate=keep-sharding-rules=true > %t.flags
// RUN: shardkit-opt %s '--pass-pipeline=builtin.module(sdy-add-data-flow-edges,sdy-basic-propagate{keep-sharding-rules=true})' > %t.pipeline
// RUN: diff %t.flags %t.pipeline
// RUN: shardkit-opt %s --pass-pipeline='sdy-add-data-flow-edges, sdy-basic-propagate{keep-sharding-rules=true}' | diff %t.flags -
// RUN: FileCheck %s < %t.pipeline

// CHECK: stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>, sdy.sharding_rule =

// Options are checked before any input is read; a pipeline is given once
// and names every pass.
// RUN: not shardkit-opt /no/such/input.mlir '--pass-pipeline=builtin.module(sdy-basic-propagate{keep-sharding-rules=maybe})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION
// OPTION: shardkit-opt: error: pass '-sdy-basic-propagate' option 'keep-sharding-rules' expects true or false, got 'maybe'
// RUN: not shardkit-opt %s --pass-pipeline=sdy-basic-propagate -sdy-aggressive-propagate 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not shardkit-opt %s -sdy-aggressive-propagate --pass-pipeline=sdy-basic-propagate 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: shardkit-opt: error: --pass-pipeline cannot be combined with -PASS flags
// RUN: not shardkit-opt %s --pass-pipeline=sdy-basic-propagate --pass-pipeline=sdy-basic-propagate 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: shardkit-opt: error: --pass-pipeline may be given once
// RUN: not shardkit-opt %s '--pass-pipeline=builtin.module(sdy-basic-propagate' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// UNBALANCED: shardkit-opt: error: invalid pass pipeline 'builtin.module(sdy-basic-propagate'

sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
