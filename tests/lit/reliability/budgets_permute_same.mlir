// A collective_permute that keeps every device's shard costs 0, found
// without enumerating its 2^28 devices (kDeviceBudget, budgets.mlir).
// RUN: shardkit-opt %s -o /dev/null --comm-report=- 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: "sdy.collective_permute", {{.*}} "bytes_received_per_device": 0
sdy.mesh @big = <["a"=16384, "b"=16384]>
func.func @same(%arg0: tensor<16384x16384xf32> {sdy.sharding = #sdy.sharding<@big, [{"a"}, {"b"}]>})
    -> tensor<16384x16384xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@big, [{"a"}, {"b"}]> : tensor<16384x16384xf32>
  return %0 : tensor<16384x16384xf32>
}

