// An all_slice of a dimension its operand already shards (the dot's 6
// rows on y, sliced further by x into pieces of 2 of 8): padding the
// sharded operand moved device 1's rows away and the result held zeros.
// Now the dimension is gathered, padded, and sliced by y and x.
// (Found by running random programs against their unpartitioned twins.)
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   -sdy-partitioner-pipeline=partition-count=4 \
// RUN:   | shardkit-opt --interpret - 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// CHECK-NOT: error

sdy.mesh @m = <["x"=2, "y"=2]>
func.func @parallel(%arg0: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}, %arg1: tensor<5x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<5xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  %0 = sdy.reshard %arg0 <@m, [{"y"}, {"x"}]> : tensor<6x5xf32>
  %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {"x"}]>]>} : tensor<6x5xf32>
  %2 = sdy.reshard %arg1 <@m, [{"x"}, {}]> : tensor<5x4xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {}]>]>} : (tensor<6x5xf32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %4 = stablehlo.pad %3, %c, low = [0, 0], high = [0, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y"}, {}]>]>} : (tensor<6x4xf32>, tensor<f32>) -> tensor<6x4xf32>
  %5 = stablehlo.slice %4 [1:6, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y"}, {}]>]>} : (tensor<6x4xf32>) -> tensor<5x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %6 = stablehlo.reduce(%5 init: %z) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y"}]>]>} : (tensor<5x4xf32>, tensor<f32>) -> tensor<5xf32>
  %7 = sdy.reshard %6 <@m, [{}]> : tensor<5xf32>
  return %7 : tensor<5xf32>
}
func.func @sequential(%arg0: tensor<6x5xf32>, %arg1: tensor<5x4xf32>) -> tensor<5xf32> {
  %1 = stablehlo.exponential %arg0 : tensor<6x5xf32>
  %3 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0] : (tensor<6x5xf32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %4 = stablehlo.pad %3, %c, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<6x4xf32>
  %5 = stablehlo.slice %4 [1:6, 0:4] : (tensor<6x4xf32>) -> tensor<5x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %6 = stablehlo.reduce(%5 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<5xf32>
  return %6 : tensor<5xf32>
}
func.func @main() {
  %a = stablehlo.constant dense<[[0.09, 1.23, 1.84, -0.84, 1.06], [0.82, 0.65, -1.56, -1.89, -0.46], [0.99, -0.99, 0.01, -0.73, 1.39], [1.78, -0.39, 1.99, -1.75, 1.25], [1.50, -1.40, 0.82, 0.24, 1.82], [-1.16, 0.16, 1.53, 0.56, -0.76]]> : tensor<6x5xf32>
  %b = stablehlo.constant dense<[[-1.27, 0.65, -0.66, -1.21], [-0.04, -0.02, -0.08, -0.17], [-0.94, -0.98, 0.77, -0.70], [0.70, 1.15, 1.46, 1.78], [-1.06, -1.05, 0.94, 0.30]]> : tensor<5x4xf32>
  %seq = func.call @sequential(%a, %b) : (tensor<6x5xf32>, tensor<5x4xf32>) -> tensor<5xf32>
  %res:4 = "interpreter.run_parallel"(%a, %b, %a, %b, %a, %b, %a, %b) {programs = [[@parallel, @parallel, @parallel, @parallel]]} : (tensor<6x5xf32>, tensor<5x4xf32>, tensor<6x5xf32>, tensor<5x4xf32>, tensor<6x5xf32>, tensor<5x4xf32>, tensor<6x5xf32>, tensor<5x4xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
  "check.expect_close"(%res#0, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<5xf32>, tensor<5xf32>) -> ()
  "check.expect_close"(%res#3, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<5xf32>, tensor<5xf32>) -> ()
  return
}
