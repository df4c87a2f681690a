// The options of -sdy-convert-global-to-local: with enable-rgv3 a
// collective over full axes names them (#stablehlo.replica_group_mesh_axes),
// one over a sub-axis keeps device ids; with replica-count > 1 the device
// id is the replica id; both counts above 1 is an error.
// RUN: shardkit-opt %s -sdy-convert-global-to-local="enable-rgv3=true replica-count=8" | FileCheck %s
// RUN: shardkit-opt %s -sdy-convert-global-to-local | FileCheck %s --check-prefix=V1
// RUN: not shardkit-opt %s -sdy-convert-global-to-local="replica-count=2 partition-count=4" 2>&1 | FileCheck %s --check-prefix=COUNTS

// COUNTS: error: Shardy partitioner convert_global_to_local does not support both replica_count > 1 and partition_count > 1 yet.

sdy.mesh @m = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @f
// The gather of x and y:(2)2 names a sub-axis: device ids.
// CHECK:      "stablehlo.all_gather"(%0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 4, 5], [2, 3, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}>
// CHECK:      replica_groups = dense<{{\[\[}}0, 2], [1, 3], [4, 6], [5, 7]]> : tensor<4x2xi64>
// CHECK:      %6 = stablehlo.replica_id : tensor<ui32>
// CHECK-NEXT: %7 = stablehlo.convert %6 : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %c = stablehlo.constant dense<[0, 2, 4, 6, 0, 2, 4, 6]> : tensor<8xi64>
// CHECK:      %11 = "stablehlo.all_gather"(%10) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> : (tensor<2x8xf32>) -> tensor<8x8xf32>
// V1-LABEL: func.func @f
// V1:       stablehlo.partition_id
// V1:       "stablehlo.all_gather"(%10) {{.*}} replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = sdy.all_gather [{"x"}, {"y":(2)2}] %arg0 out_sharding=<@m, [{}, {"y":(1)2}]> : tensor<8x8xf32>
  %1 = sdy.all_gather [{}, {"y":(1)2}] %0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %2 = sdy.all_slice [{"y"}, {}] %1 out_sharding=<@m, [{"y"}, {}]> : tensor<8x8xf32>
  %3 = sdy.all_gather [{"y"}, {}] %2 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
