// --threads=N takes a count from 1 to 256; the output does not depend on it.

// RUN: shardkit-opt %s -sdy-propagation-pipeline --threads=3 | cmp - <(shardkit-opt %s -sdy-propagation-pipeline --threads=1)
// RUN: not shardkit-opt %s --threads=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not shardkit-opt %s --threads=2x 2>&1 | FileCheck %s --check-prefix=JUNK

// ZERO: shardkit-opt: error: --threads takes a number from 1 to 256, got '0'
// JUNK: shardkit-opt: error: --threads takes a number from 1 to 256, got '2x'

sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
