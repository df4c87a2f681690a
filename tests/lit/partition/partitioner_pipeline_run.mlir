// The partitioner pipeline end to end, proven by running it: a dot with a
// row count the mesh does not divide (padded), then a pad of a nonzero
// value that is local to each device's rows (left in place by
// -sdy-resolve-permutation-factors, so the padded input rows meet the
// pad). Four devices run the partitioned program; each result must equal
// the unpartitioned one. Before pad-for-divisibility masked the padded
// rows that land inside the result, row 6 held 0 instead of 7.
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   --sdy-insert-explicit-reshards=enable-full-version=true \
// RUN:   --sdy-resolve-permutation-factors --sdy-reshard-to-collectives \
// RUN:   --sdy-pad-for-divisibility --sdy-resolve-single-device-sharding \
// RUN:   --sdy-convert-global-to-local --sdy-drop-sharding-and-mesh \
// RUN:   | shardkit-opt --interpret - 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// The same steps as one pipeline option:
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   -sdy-partitioner-pipeline="enable-halo-exchange=false partition-count=4" \
// RUN:   | shardkit-opt --interpret - 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// CHECK-NOT: error

sdy.mesh @m = <["x"=2, "y"=2]>

func.func @parallel(%arg0: tensor<5x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}, %arg1: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<7x3xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = sdy.reshard %arg0 <@m, [{"x"}, {"y"}]> : tensor<5x4xf32>
  %1 = sdy.reshard %arg1 <@m, [{"y"}, {}]> : tensor<4x3xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %c = stablehlo.constant dense<7.0> : tensor<f32>
  %3 = stablehlo.pad %2, %c, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<5x3xf32>, tensor<f32>) -> tensor<7x3xf32>
  %4 = sdy.reshard %3 <@m, [{}, {}]> : tensor<7x3xf32>
  return %4 : tensor<7x3xf32>
}

func.func @sequential(%arg0: tensor<5x4xf32>, %arg1: tensor<4x3xf32>) -> tensor<7x3xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %c = stablehlo.constant dense<7.0> : tensor<f32>
  %1 = stablehlo.pad %0, %c, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<5x3xf32>, tensor<f32>) -> tensor<7x3xf32>
  return %1 : tensor<7x3xf32>
}

func.func @main() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, -2.0, -3.0, -4.0], [0.5, 1.5, 2.5, 3.5], [2.0, 0.0, -2.0, 1.0]]> : tensor<5x4xf32>
  %rhs = stablehlo.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [3.0, 1.0, 0.0], [-2.0, 2.0, 1.0]]> : tensor<4x3xf32>
  %seq = func.call @sequential(%lhs, %rhs) : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<7x3xf32>
  %res:4 = "interpreter.run_parallel"(%lhs, %rhs, %lhs, %rhs, %lhs, %rhs, %lhs, %rhs) {programs = [[@parallel, @parallel, @parallel, @parallel]]} : (tensor<5x4xf32>, tensor<4x3xf32>, tensor<5x4xf32>, tensor<4x3xf32>, tensor<5x4xf32>, tensor<4x3xf32>, tensor<5x4xf32>, tensor<4x3xf32>) -> (tensor<7x3xf32>, tensor<7x3xf32>, tensor<7x3xf32>, tensor<7x3xf32>)
  "check.expect_eq"(%res#0, %seq) : (tensor<7x3xf32>, tensor<7x3xf32>) -> ()
  "check.expect_eq"(%res#1, %seq) : (tensor<7x3xf32>, tensor<7x3xf32>) -> ()
  "check.expect_eq"(%res#2, %seq) : (tensor<7x3xf32>, tensor<7x3xf32>) -> ()
  "check.expect_eq"(%res#3, %seq) : (tensor<7x3xf32>, tensor<7x3xf32>) -> ()
  return
}
