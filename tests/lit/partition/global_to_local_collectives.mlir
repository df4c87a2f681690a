// -sdy-convert-global-to-local turns the sdy collectives into StableHLO
// collectives over device-id replica groups. Mesh @m numbers device
// (a, b, c) as 4a + 2b + c; @ids lists its devices in reverse.
// RUN: shardkit-opt %s -sdy-convert-global-to-local | FileCheck %s
// RUN: shardkit-opt %s -sdy-convert-global-to-local=per-dim-all-gather=true | FileCheck %s --check-prefix=PERDIM

sdy.mesh @m = <["a"=2, "b"=2, "c"=2]>
sdy.mesh @ids = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>

// Two gathered dims in one all_gather: the group lists c then a (the
// gathered dims' order), the leading dim splits into (c, a) and each factor
// goes before its dim.
// CHECK-LABEL: func.func @gather_two_dims
// CHECK-SAME: (%arg0: tensor<4x3xf32>
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
// CHECK-NEXT: %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4, 1, 5], [2, 6, 3, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<1x4x3xf32>) -> tensor<4x4x3xf32>
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<4x4x3xf32>) -> tensor<2x2x4x3xf32>
// CHECK-NEXT: %3 = stablehlo.transpose %2, dims = [0, 2, 1, 3] : (tensor<2x2x4x3xf32>) -> tensor<2x4x2x3xf32>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<2x4x2x3xf32>) -> tensor<8x6xf32>
// CHECK-NEXT: return %4 : tensor<8x6xf32>
// Per dim: the last gathered dim first.
// PERDIM-LABEL: func.func @gather_two_dims
// PERDIM-NEXT: %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<4x3xf32>) -> tensor<4x6xf32>
// PERDIM-NEXT: %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<4x6xf32>) -> tensor<8x6xf32>
// PERDIM-NEXT: return %1
func.func @gather_two_dims(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"c"}, {"a"}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = sdy.all_gather [{"c"}, {"a"}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// A mesh's device ids are the group members; max reduces with maximum.
// CHECK-LABEL: func.func @reduce_max_ids
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}3, 2], [1, 0]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
// CHECK-NEXT:   %1 = stablehlo.maximum %arg1, %arg2 : tensor<i32>
// CHECK-NEXT:   stablehlo.return %1 : tensor<i32>
// CHECK-NEXT: }) : (tensor<4xi32>) -> tensor<4xi32>
func.func @reduce_max_ids(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = sdy.all_reduce max {"b"} %arg0 out_sharding=<@ids, [{}]> : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// The device's offset along ("c", "a") is (2c + a) * 2, looked up by its id.
// CHECK-LABEL: func.func @slice_two_axes
// CHECK-SAME: -> (tensor<2xf32>
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 4, 0, 4, 2, 6, 2, 6]> : tensor<8xi64>
// CHECK-NEXT: %2 = stablehlo.dynamic_slice %c, %1, sizes = [1] : (tensor<8xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %3 = stablehlo.reshape %2 : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT: %4 = stablehlo.dynamic_slice %arg0, %3, sizes = [2] : (tensor<8xf32>, tensor<i64>) -> tensor<2xf32>
func.func @slice_two_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"c", "a"}]>}) {
  %0 = sdy.all_slice [{"c", "a"}] %arg0 out_sharding=<@m, [{"c", "a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// One parameter: split the target dim among the group, concatenate along
// the source dim. No use_global_device_ids on an all_to_all.
// CHECK-LABEL: func.func @to_all_one
// CHECK-NEXT: %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
func.func @to_all_one(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", "b"}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>}) {
  %0 = sdy.all_to_all [{"b"}: 0->1] %arg0 out_sharding=<@m, [{"a"}, {"b"}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Two parameters in one all_to_all over both groups' axes.
// CHECK-LABEL: func.func @to_all_two
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 : (tensor<2x2x4x4xf32>) -> tensor<2x2x2x2x2x2xf32>
// CHECK-NEXT: %1 = stablehlo.transpose %0, dims = [2, 4, 0, 1, 3, 5]
// CHECK-NEXT: %2 = stablehlo.reshape %1 : (tensor<2x2x2x2x2x2xf32>) -> tensor<4x2x2x2x2xf32>
// CHECK-NEXT: %3 = "stablehlo.all_to_all"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<4x2x2x2x2xf32>) -> tensor<2x2x2x2x2x2xf32>
// CHECK-NEXT: %5 = stablehlo.transpose %4, dims = [0, 2, 1, 3, 4, 5]
// CHECK-NEXT: %6 = stablehlo.reshape %5 : (tensor<2x2x2x2x2x2xf32>) -> tensor<4x4x2x2xf32>
func.func @to_all_two(%arg0: tensor<4x4x4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}, {}, {}]>})
    -> (tensor<4x4x4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {"a"}, {"b"}]>}) {
  %0 = sdy.all_to_all [{"a"}: 0->2, {"b"}: 1->3] %arg0 out_sharding=<@m, [{}, {}, {"a"}, {"b"}]> : tensor<4x4x4x4xf32>
  return %0 : tensor<4x4x4x4xf32>
}

// Device 1 (position 2: a=1, b=0) holds shard 2 of ("a", "b"), which is shard
// 2 of ("b", "a") at position 1: device 2.
// CHECK-LABEL: func.func @permute_ids
// CHECK-NEXT: %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, source_target_pairs = dense<{{\[\[}}0, 0], [1, 2], [2, 1], [3, 3]]> : tensor<4x2xi64>}> : (tensor<1xf32>) -> tensor<1xf32>
func.func @permute_ids(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@ids, [{"a", "b"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@ids, [{"b", "a"}]>}) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@ids, [{"b", "a"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Two scattered dims: an all_reduce over b and c, then the device's piece.
// CHECK-LABEL: func.func @scatter_two
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
// CHECK:      stablehlo.minimum
// CHECK:      stablehlo.constant dense<[0, 0, 4, 4, 0, 0, 4, 4]> : tensor<8xi64>
// CHECK:      stablehlo.constant dense<[0, 4, 0, 4, 0, 4, 0, 4]> : tensor<8xi64>
// CHECK:      stablehlo.dynamic_slice %0, %{{.*}}, %{{.*}}, sizes = [4, 4] : (tensor<8x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
func.func @scatter_two(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {"c"}]>}) {
  %0 = sdy.reduce_scatter min [{"b"}, {"c"}] %arg0 out_sharding=<@m, [{"b"}, {"c"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
