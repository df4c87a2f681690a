// What the interpreter cannot run is an error at the op, never a crash or a
// hang: an unknown op, a custom call, a collective outside run_parallel, a
// deadlock between processes, collectives of different kinds meeting, a
// missing @main, a program given a value of another type.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @main() {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'foo.bar' op is not supported by the interpreter
  %0 = "foo.bar"() : () -> tensor<i32>
  return
}

// -----

func.func @main() {
  %c = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.custom_call' op @foo cannot be interpreted
  %0 = stablehlo.custom_call @foo(%c) : (tensor<i32>) -> tensor<i32>
  return
}

// -----

func.func @main() {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.partition_id' op is only supported when run via interpreter.run_parallel
  %0 = stablehlo.partition_id : tensor<ui32>
  return
}

// -----

func.func @waits(%x: tensor<2xi32>) -> tensor<4xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.all_gather' op of process group [(0, 0), (0, 1)] waits for process [(0, 1)], which ended or waits at another collective (deadlock)
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @returns(%x: tensor<2xi32>) -> tensor<4xi32> {
  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@waits, @returns]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return
}

// -----

func.func @gathers(%x: tensor<2xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @sums(%x: tensor<2xi32>) -> tensor<4xi32> {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'stablehlo.all_reduce' op of process (0, 1) meets a collective of another kind or other operand types (stablehlo.all_gather tensor<2xi32>) of process (0, 0) in process group [(0, 0), (0, 1)]
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2xi32>) -> tensor<2xi32>
  %1 = stablehlo.concatenate %0, %0, dim = 0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@gathers, @sums]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return
}

// -----

// CHECK: errors.mlir:[[@LINE+1]]:1: error: the module has no function @main to run
func.func @not_main() {
  return
}

// -----

func.func @takes_four(%x: tensor<4xi32>) -> tensor<4xi32> {
  return %x : tensor<4xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: 'interpreter.run_parallel' op calls @takes_four with a value of type tensor<2xi32> for its argument #0 of type tensor<4xi32>
  %r:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@takes_four, @takes_four]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return
}
