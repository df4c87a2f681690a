// -sdy-convert-global-to-local on the StableHLO ops whose local form depends
// on the shards. Mesh @m numbers device (x, y) as 3x + y.
// RUN: shardkit-opt %s -sdy-convert-global-to-local | FileCheck %s

sdy.mesh @m = <["x"=2, "y"=3]>
sdy.mesh @one = <["u"=1, "x"=2]>

// An iota along a sharded dim adds the device's offset, converted to the
// element type; the new iota has no sharding attribute.
// CHECK-LABEL: func.func @iota_f32()
// CHECK-SAME: -> (tensor<2x2xf32>
// CHECK-NEXT: %0 = stablehlo.iota dim = 0 : tensor<2x2xf32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 2, 4, 0, 2, 4]> : tensor<6xi64>
// CHECK-NEXT: %3 = stablehlo.dynamic_slice %c, %2, sizes = [1] : (tensor<6xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT: %5 = stablehlo.convert %4 : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT: %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT: %7 = stablehlo.add %0, %6 : tensor<2x2xf32>
// CHECK-NEXT: return %7
func.func @iota_f32() -> (tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {"x"}]>}) {
  %0 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {"x"}]>]>} : tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// A splat keeps its value at the local type; a dense constant is sliced.
// CHECK-LABEL: func.func @constant_splat_and_dense()
// CHECK-NEXT: %c = stablehlo.constant dense<7> : tensor<2xi32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<[0, 0, 0, 2, 2, 2]> : tensor<6xi64>
// CHECK:      %4 = stablehlo.dynamic_slice %c_0, %3, sizes = [2] : (tensor<4xi32>, tensor<i64>) -> tensor<2xi32>
// CHECK-NEXT: return %c, %4
func.func @constant_splat_and_dense() -> (tensor<6xi32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}, tensor<4xi32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}]>]>} dense<7> : tensor<6xi32>
  %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} dense<[1, 2, 3, 4]> : tensor<4xi32>
  return %0, %1 : tensor<6xi32>, tensor<4xi32>
}

// A dim sharded by a size-1 axis may be sliced short; a full slice ends at
// the local size. The rebuilt slice has no sharding attribute.
// CHECK-LABEL: func.func @slice_size_one_axis
// CHECK-NEXT: %0 = stablehlo.slice %arg0 [0:3, 0:2] : (tensor<6x2xf32>) -> tensor<3x2xf32>
func.func @slice_size_one_axis(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@one, [{"u"}, {"x"}]>})
    -> (tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@one, [{"u"}, {"x"}]>}) {
  %0 = stablehlo.slice %arg0 [0:3, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@one, [{"u"}, {"x"}]>]>} : (tensor<6x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// Padding an unsharded dim: the same pad on every device.
// CHECK-LABEL: func.func @pad_uniform
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<6x2xf32>
func.func @pad_uniform(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}, %arg1: tensor<f32>)
    -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}) {
  %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// Global [p p a0 a1 p p]: device x=0 holds [p p a0] (its element at offset 2),
// x=1 holds [a1 p p] (offset 0). Pad for both, slice at 2 - offset.
// CHECK-LABEL: func.func @pad_shifted
// CHECK-NEXT: %0 = stablehlo.pad %arg0, %arg1, low = [2], high = [2], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 0, 0, 2, 2, 2]> : tensor<6xi64>
// CHECK-NEXT: %3 = stablehlo.dynamic_slice %c, %2, sizes = [1] : (tensor<6xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT: %5 = stablehlo.dynamic_slice %0, %4, sizes = [3] : (tensor<5xf32>, tensor<i64>) -> tensor<3xf32>
func.func @pad_shifted(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}, %arg1: tensor<f32>)
    -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = stablehlo.pad %arg0, %arg1, low = [2], high = [2], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// Concatenating along a replicated dim is local; the op keeps its attributes.
// CHECK-LABEL: func.func @concat_unsharded_dim
// CHECK-NEXT: %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>} : (tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<6x2xf32>
func.func @concat_unsharded_dim(%arg0: tensor<2x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}, %arg1: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>})
    -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}) {
  %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>} : (tensor<2x6xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// A contraction sharded along y: local partial sums, then the all_reduce.
// CHECK-LABEL: func.func @dot_general_contracting
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = {{.*}}} : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, use_global_device_ids}>
func.func @dot_general_contracting(%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}, %arg1: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}], unreduced={"y"}>]>} : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@m, [{}, {}]> : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// Six feature groups over three devices: two per device. The rebuilt
// convolution keeps only its own attributes.
// CHECK-LABEL: func.func @conv_feature_groups
// CHECK-NEXT: %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x2xf32>, tensor<3x3x1x2xf32>) -> tensor<1x6x6x2xf32>
func.func @conv_feature_groups(%arg0: tensor<1x8x8x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {}, {"y"}]>}, %arg1: tensor<3x3x1x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {}, {"y"}]>})
    -> (tensor<1x6x6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {}, {"y"}]>}) {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64, sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}, {}, {"y"}]>]>} : (tensor<1x8x8x6xf32>, tensor<3x3x1x6xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}
