// -sdy-propagation-pipeline runs -sdy-import-pipeline, user-priority
// propagation and -sdy-export-pipeline. It checks that both pipelines are
// registered before touching the module, and fails with a clear message
// instead of silently skipping one.
// TODO(lead): shardkit has no -sdy-export-pipeline yet; once it is
// registered, replace this expectation by checks of the propagated module.
// RUN: not shardkit-opt %s -sdy-propagation-pipeline 2>&1 | FileCheck %s

// CHECK: error: sdy-propagation-pipeline needs the pass '-sdy-export-pipeline', which is not registered
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
