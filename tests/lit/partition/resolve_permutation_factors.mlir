// -sdy-resolve-permutation-factors: ops with a sharded permutation factor
// that needs another device's data are resharded to replicated along it;
// local slices and pads, and divisible reshapes, stay. Halo exchange is
// not built: both settings give the same program.
// RUN: shardkit-opt %s -sdy-resolve-permutation-factors | FileCheck %s
// RUN: shardkit-opt %s -sdy-resolve-permutation-factors="enable-halo-exchange=false partition-count=4" | FileCheck %s
// RUN: not shardkit-opt %s -sdy-resolve-permutation-factors="replica-count=2 partition-count=2" 2>&1 | FileCheck %s --check-prefix=COUNTS
// COUNTS: does not support replica_count > 1 && partition_count > 1

sdy.mesh @m = <["x"=2, "y"=2]>

// A pad at both ends keeps each device's output rows in its own input
// piece: local, left as it is.
// CHECK-LABEL: func.func @pad_local
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant
// CHECK-NEXT: %[[P:.*]] = stablehlo.pad %arg0, %[[C]], low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {"y"}]>]>}
// CHECK-NEXT: return %[[P]]
func.func @pad_local(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {"y"}]>]>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// A pad at the high end moves the rows of device 1 into device 0's piece:
// the padded dimension is replicated around it, the other stays sharded.
// CHECK-LABEL: func.func @pad_moves_data
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@m, [{}, {"y"}]> : tensor<4x4xf32>
// CHECK-NEXT: %[[P:.*]] = stablehlo.pad %[[IN]], %[[C]], low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>}
// CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[P]] <@m, [{"x"}, {"y"}]> : tensor<6x4xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @pad_moves_data(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %arg0, %c, low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {"y"}]>]>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// A slice from 0 keeping the piece size is local; one from 1 is not.
// CHECK-LABEL: func.func @slices
// CHECK-NEXT: %[[A:.*]] = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>}
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@m, [{}]> : tensor<8xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.slice %[[IN]] [1:7] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>}
// CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[B]] <@m, [{"x"}]> : tensor<6xf32>
// CHECK-NEXT: return %[[A]], %[[OUT]]
func.func @slices(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<7xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}, tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  %1 = stablehlo.slice %arg0 [1:7] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<6xf32>
  return %0, %1 : tensor<7xf32>, tensor<6xf32>
}

// A reverse of a sharded dimension.
// CHECK-LABEL: func.func @reverse
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@m, [{}, {"y"}]>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %[[IN]], dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>}
// CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@m, [{"x"}, {"y"}]>
// CHECK-NEXT: return %[[OUT]]
func.func @reverse(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {"y"}]>]>} : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// A reshape that splits a dimension of 9 sharded in two: that axis is
// replicated on both sides, the other stays.
// CHECK-LABEL: func.func @reshape_split_indivisible
// CHECK-NEXT: %[[IN:.*]] = sdy.reshard %arg0 <@m, [{}, {"y"}]> : tensor<9x4xf32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %[[IN]] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}, {"y"}]>]>}
// CHECK-NEXT: %[[OUT:.*]] = sdy.reshard %[[R]] <@m, [{"x"}, {}, {"y"}]>
// CHECK-NEXT: return %[[OUT]]
func.func @reshape_split_indivisible(%arg0: tensor<9x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<3x3x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}, {"y"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}, {"y"}]>]>} : (tensor<9x4xf32>) -> tensor<3x3x4xf32>
  return %0 : tensor<3x3x4xf32>
}

// A reshape that only adds a size-1 dimension maps each dimension to one:
// left to -sdy-pad-for-divisibility even where 3 is sharded in two.
// CHECK-LABEL: func.func @reshape_passthrough_indivisible
// CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %arg0
// CHECK-NEXT: return %[[R]]
func.func @reshape_passthrough_indivisible(%arg0: tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<1x3x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}, {"y"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"x"}, {"y"}]>]>} : (tensor<3x4xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// A divisible reshape stays as it is.
// CHECK-LABEL: func.func @reshape_divisible
// CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %arg0
// CHECK-NEXT: return %[[R]]
func.func @reshape_divisible(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> (tensor<4x2x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}, {}]>]>} : (tensor<4x4xf32>) -> tensor<4x2x2xf32>
  return %0 : tensor<4x2x2xf32>
}
