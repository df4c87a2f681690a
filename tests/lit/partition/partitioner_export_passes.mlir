// The export passes the partitioner pipeline runs around
// -sdy-convert-global-to-local: -sdy-resolve-single-device-sharding,
// -sdy-remove-all-gather-reduce-scatter-for-cmv1 (and
// drop_sharding_and_mesh.mlir).
// RUN: shardkit-opt %s -split-input-file -sdy-resolve-single-device-sharding=partition-count=2 | FileCheck %s --check-prefix=SINGLE
// RUN: not shardkit-opt %s -split-input-file -sdy-resolve-single-device-sharding="replica-count=2 partition-count=2" 2>&1 | FileCheck %s --check-prefix=COUNTS
// RUN: shardkit-opt %s -split-input-file -sdy-remove-all-gather-reduce-scatter-for-cmv1 | FileCheck %s --check-prefix=CMV1

// A result on device 1 beside a result replicated with an explicit
// replicated axis: the op runs on device 1 only and both results are
// all-reduced. Asking for replica and partition ids at once fails.
// SINGLE-LABEL: func.func @one_device
// SINGLE:      %[[ID:.*]] = stablehlo.partition_id
// SINGLE:      %[[C1:.*]] = stablehlo.constant dense<1> : tensor<i64>
// SINGLE:      stablehlo.compare  EQ, %{{.*}}, %[[C1]]
// SINGLE:      "stablehlo.if"
// SINGLE:      stablehlo.custom_call @Host(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// SINGLE:      sdy.all_reduce {"x"} %{{.*}}#0 out_sharding=<@m, [{}]>
// SINGLE-NEXT: sdy.all_reduce {"x"} %{{.*}}#1 out_sharding=<@m, [{}]>
// COUNTS: error: 'stablehlo.custom_call' op Shardy partitioner does not support replica_count > 1 && partition_count > 1 yet.
sdy.mesh @m = <["x"=2]>
sdy.mesh @dev1 = <[], device_ids=[1]>
func.func @one_device(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<4xf32> {
  %0:2 = stablehlo.custom_call @Host(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev1, []>, <@m, [{}], replicated={"x"}>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1 = stablehlo.add %0#0, %0#1 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// An all-gather whose only use is a dot's operand goes; that dot keeps its
// reduce-scatter. A dot without one loses its reduce-scatter and takes its
// sharding.
// CMV1-LABEL: func.func @gathered_operand
// CMV1-NEXT:  %0 = stablehlo.dot %arg0, %arg1
// CMV1-NEXT:  %1 = sdy.reduce_scatter [{"x"}, {}] %0
// CMV1-LABEL: func.func @plain_operands
// CMV1-NEXT:  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>}
// CMV1-NEXT:  return %0
sdy.mesh @m = <["x"=2]>
func.func @gathered_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.dot %0, %arg1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
func.func @plain_operands(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = stablehlo.dot %arg0, %arg1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
