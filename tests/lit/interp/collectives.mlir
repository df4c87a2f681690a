// interpreter.run_parallel and the StableHLO collectives, with the process
// groups of each strategy (cross_replica, cross_partition,
// cross_replica_and_partition, flattened_ids). The last chunks are the
// twins: the same programs with the devices' inputs in another order, or a
// wrong expectation; each failure must be reported.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

// 1 replica x 4 partitions; flattened ids [[0, 2], [1, 3]].
func.func @gather(%x: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[10]> : tensor<1xi32>
  %b = stablehlo.constant dense<[11]> : tensor<1xi32>
  %c = stablehlo.constant dense<[12]> : tensor<1xi32>
  %d = stablehlo.constant dense<[13]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather, @gather, @gather, @gather]]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[10, 12]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[11, 13]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[10, 12]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<[11, 13]> : tensor<2xi32>
  return
}

// -----

// 2 replicas x 2 partitions. Without a channel, all_reduce groups replicas
// (cross_replica: one group per partition); with a channel and no global
// ids, replica groups span every partition (cross_replica_and_partition).
func.func @sum_replicas(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @sum_all(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r, %p : tensor<ui32>, tensor<ui32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %c = stablehlo.constant dense<[100, 200]> : tensor<2xi32>
  %d = stablehlo.constant dense<[1000, 2000]> : tensor<2xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_replicas, @sum_replicas], [@sum_replicas, @sum_replicas]]} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[101, 202]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[1010, 2020]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[101, 202]> : tensor<2xi32>
  %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_all, @sum_all], [@sum_all, @sum_all]]} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %s#3, dense<[1111, 2222]> : tensor<2xi32>
  %i:8 = "interpreter.run_parallel"() {programs = [[@ids, @ids], [@ids, @ids]]} : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %i#2, dense<0> : tensor<ui32>
  check.expect_eq_const %i#3, dense<1> : tensor<ui32>
  check.expect_eq_const %i#4, dense<1> : tensor<ui32>
  check.expect_eq_const %i#5, dense<0> : tensor<ui32>
  return
}

// -----

// reduce_scatter, all_to_all, collective_permute (a process no pair targets
// gets zeros) and collective_broadcast across 1 x 3 partitions.
func.func @rs(%x: tensor<3xi32>) -> tensor<1xi32> {
  %0 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<3xi32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
func.func @a2a(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @perm(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @bcast(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 0]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>
  %c = stablehlo.constant dense<[100, 200, 300]> : tensor<3xi32>
  %r:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@rs, @rs, @rs]]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
  check.expect_eq_const %r#0, dense<[111]> : tensor<1xi32>
  check.expect_eq_const %r#2, dense<[333]> : tensor<1xi32>
  %t:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@a2a, @a2a, @a2a]]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %t#0, dense<[1, 10, 100]> : tensor<3xi32>
  check.expect_eq_const %t#1, dense<[2, 20, 200]> : tensor<3xi32>
  %p:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@perm, @perm, @perm]]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %p#0, dense<[10, 20, 30]> : tensor<3xi32>
  check.expect_eq_const %p#1, dense<[1, 2, 3]> : tensor<3xi32>
  check.expect_eq_const %p#2, dense<0> : tensor<3xi32>
  %q:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@bcast, @bcast, @bcast]]} : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %q#0, dense<[100, 200, 300]> : tensor<3xi32>
  check.expect_eq_const %q#1, dense<0> : tensor<3xi32>
  return
}

// -----

// The twin of the first chunk: the inputs of partitions 1 and 2 swapped.
func.func @gather(%x: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[10]> : tensor<1xi32>
  %b = stablehlo.constant dense<[11]> : tensor<1xi32>
  %c = stablehlo.constant dense<[12]> : tensor<1xi32>
  %d = stablehlo.constant dense<[13]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %c, %b, %d) {programs = [[@gather, @gather, @gather, @gather]]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  // CHECK: collectives.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 11 (actual) vs 12 (expected) at index [1]
  check.expect_eq_const %r#0, dense<[10, 12]> : tensor<2xi32>
  // CHECK: collectives.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 12 (actual) vs 11 (expected) at index [0]
  check.expect_eq_const %r#1, dense<[11, 13]> : tensor<2xi32>
  return
}

// -----

// The twin of the second chunk: a grid of 1 x 4 where 2 x 2 was meant, so
// cross_replica groups are single processes.
func.func @sum_replicas(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %c = stablehlo.constant dense<[100, 200]> : tensor<2xi32>
  %d = stablehlo.constant dense<[1000, 2000]> : tensor<2xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum_replicas, @sum_replicas, @sum_replicas, @sum_replicas]]} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  // CHECK: collectives.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 1 (actual) vs 101 (expected) at index [0]
  check.expect_eq_const %r#0, dense<[101, 202]> : tensor<2xi32>
  return
}
