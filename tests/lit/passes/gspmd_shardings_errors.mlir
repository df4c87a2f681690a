// GSPMD shardings the mesh cannot express, or that have no sdy sharding, are
// errors at their op.
// RUN: not shardkit-opt %s -split-input-file -sdy-import-gspmd-shardings 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR
sdy.mesh @mesh = <["x"=2, "y"=3]>
// ERR: gspmd_shardings_errors.mlir:[[@LINE+1]]:1: error: argument 0: GSPMD: a tile dimension is not a product of mesh axes
func.func @bad(%arg0: tensor<6x6xf32> {mhlo.sharding = "{devices=[3,2]<=[6]}"}) -> tensor<6x6xf32> {
  return %arg0 : tensor<6x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
// ERR: gspmd_shardings_errors.mlir:[[@LINE+2]]:3: error: GSPMD: {manual} has no sdy sharding
func.func @manual(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 {mhlo.sharding = "{manual}"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
