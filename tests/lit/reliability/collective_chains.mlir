// -sdy-check-collectives walks a chain of collectives with an explicit
// stack: 20,000 collectives, each reading the one before, are checked
// without a stack overflow (docs/reliability.md, "Depth").
// RUN: python3 $(dirname %s)/call_graphs.py collectives 20000 | shardkit-opt - -sdy-check-collectives -o /dev/null

// A tree too big to simulate is not skipped silently: each of its
// collectives gets a warning, and the run goes on.
// RUN: shardkit-opt %s -sdy-check-collectives -o /dev/null 2>&1 | FileCheck %s
// CHECK: collective_chains.mlir:[[# @LINE + 4]]:3: warning: not checked: simulating it takes 67108864 elements over all devices, more than the budget of 16777216
// CHECK-NOT: warning
sdy.mesh @mesh = <["x"=2, "y"=8388608]>
func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
