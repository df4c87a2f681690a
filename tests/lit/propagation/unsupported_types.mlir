// A dynamically shaped or tuple result anywhere in the module stops
// propagation with an error at the op that defines it.
// RUN: not shardkit-opt %s -split-input-file -sdy-basic-propagate 2>&1 | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK: unsupported_types.mlir:[[@LINE+2]]:3: error: Shardy propagation only supports ranked tensors with a static shape. type: tensor<?xf32>
func.func @dynamic_shape(%arg0: tensor<?xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<?xf32> {
  %0 = stablehlo.abs %arg0 : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK: unsupported_types.mlir:[[@LINE+2]]:3: error: Shardy propagation doesn't support tuples: tuple<tensor<8xf32>, tensor<8xf32>>
func.func @tuple_result(%arg0: tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>> {
  %0 = "stablehlo.tuple"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>>
  return %0 : tuple<tensor<8xf32>, tensor<8xf32>>
}
