// The example of issue 11: a tensor<16x8xf32> on ["x"=4] resharded from
// [{"x"}, {}] to [{}, {}] is one all_gather, each device receiving the
// other three 4x8 f32 shards: 384 bytes.
// RUN: shardkit-opt %s -sdy-reshard-to-collectives -o /dev/null --comm-report=/dev/stdout | FileCheck %s

// CHECK:      {
// CHECK-NEXT:   "collectives": [
// CHECK-NEXT:     {"op": "sdy.all_gather", "loc": "{{.*}}comm_report_done_when.mlir:[[# @LINE + 8]]:3", "axes": ["x"], "local_bytes_in": 128, "bytes_received_per_device": 384}
// CHECK-NEXT:   ],
// CHECK-NEXT:   "total_bytes_received_per_device": 384
// CHECK-NEXT: }
sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
