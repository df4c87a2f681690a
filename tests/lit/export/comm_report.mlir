// --comm-report writes, after the passes, the bytes each collective moves by
// the ring model of docs/export.md.
// RUN: shardkit-opt %s -sdy-reshard-to-collectives -o /dev/null --comm-report=/dev/stdout | FileCheck %s
// RUN: echo 'func.func @f() { return }' | shardkit-opt - -o /dev/null --comm-report=- | FileCheck %s --check-prefix=NONE

// A 16x8 f32 tensor sharded 4 ways holds 4x8x4 = 128 bytes per device; the
// all-gather that replicates it receives the 3 other shards.
// CHECK:      "collectives": [
// CHECK-NEXT:   {"op": "sdy.all_gather", "loc": "{{.*}}comm_report.mlir:[[# @LINE + 6]]:3", "axes": ["x"], "local_bytes_in": 128, "bytes_received_per_device": 384},
sdy.mesh @mesh = <["x"=4, "y"=2]>
sdy.mesh @mesh_other_order = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>

func.func @all_gather(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// Slicing moves nothing; an all-to-all over 2 devices receives half its
// shard; an all-reduce over 2 devices receives 2 * (2 - 1) / 2 of it, a
// reduce-scatter half of that.
// CHECK-NEXT:   {"op": "sdy.all_slice", "loc": "{{.*}}", "axes": ["y"], "local_bytes_in": 512, "bytes_received_per_device": 0},
// CHECK-NEXT:   {"op": "sdy.all_to_all", "loc": "{{.*}}", "axes": ["y"], "local_bytes_in": 256, "bytes_received_per_device": 128},
// CHECK-NEXT:   {"op": "sdy.all_reduce", "loc": "{{.*}}", "axes": ["y"], "local_bytes_in": 128, "bytes_received_per_device": 128},
// CHECK-NEXT:   {"op": "sdy.reduce_scatter", "loc": "{{.*}}", "axes": ["y"], "local_bytes_in": 128, "bytes_received_per_device": 64},
func.func @others(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>})
    -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"y"}: 1->0] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %2 = sdy.all_reduce {"y"} %arg1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  %3 = sdy.reduce_scatter [{}, {"y"}] %arg1 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x8xf32>
  return %1, %2, %3 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// A permute onto another device order moves every shard; one that keeps
// every device's shard moves nothing.
// CHECK-NEXT:   {"op": "sdy.collective_permute", "loc": "{{.*}}", "axes": [], "local_bytes_in": 32, "bytes_received_per_device": 32},
// CHECK-NEXT:   {"op": "sdy.collective_permute", "loc": "{{.*}}", "axes": [], "local_bytes_in": 32, "bytes_received_per_device": 0}
// CHECK-NEXT: ],
// CHECK-NEXT: "total_bytes_received_per_device": 736
func.func @permutes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh_other_order, [{"x"}, {"y"}]> : tensor<8x8xf32>
  %1 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// NONE:      "collectives": [],
// NONE-NEXT: "total_bytes_received_per_device": 0
