// A gather that leaves a padded dimension sharded: the dot's rows (6, on
// x and y, padded to 8) are gathered over y only; trimming them while
// still sharded on x left rows at the wrong devices (convert-global-to-local
// refused the slice). Now the dimension is gathered whole, trimmed and
// sliced by x again.
// (Found by running random programs against their unpartitioned twins.)
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   -sdy-partitioner-pipeline=partition-count=4 \
// RUN:   | shardkit-opt --interpret - 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// CHECK-NOT: error

sdy.mesh @m = <["x"=2, "y"=2]>
func.func @parallel(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}, %arg1: tensor<2x5xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  %0 = sdy.reshard %arg0 <@m, [{"x", "y"}, {}]> : tensor<6x2xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y"}, {}]>]>} : tensor<6x2xf32>
  %2 = sdy.reshard %arg1 <@m, [{}, {}]> : tensor<2x5xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x", "y"}, {}]>]>} : (tensor<6x2xf32>, tensor<2x5xf32>) -> tensor<6x5xf32>
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %4 = stablehlo.pad %3, %c, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<6x5xf32>, tensor<f32>) -> tensor<8x5xf32>
  %5 = stablehlo.slice %4 [0:8, 0:5] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<8x5xf32>) -> tensor<8x5xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %6 = stablehlo.reduce(%5 init: %z) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : (tensor<8x5xf32>, tensor<f32>) -> tensor<8xf32>
  %7 = sdy.reshard %6 <@m, [{}]> : tensor<8xf32>
  return %7 : tensor<8xf32>
}
func.func @sequential(%arg0: tensor<6x2xf32>, %arg1: tensor<2x5xf32>) -> tensor<8xf32> {
  %1 = stablehlo.abs %arg0 : tensor<6x2xf32>
  %3 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0] : (tensor<6x2xf32>, tensor<2x5xf32>) -> tensor<6x5xf32>
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %4 = stablehlo.pad %3, %c, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<6x5xf32>, tensor<f32>) -> tensor<8x5xf32>
  %5 = stablehlo.slice %4 [0:8, 0:5] : (tensor<8x5xf32>) -> tensor<8x5xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %6 = stablehlo.reduce(%5 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x5xf32>, tensor<f32>) -> tensor<8xf32>
  return %6 : tensor<8xf32>
}
func.func @main() {
  %a = stablehlo.constant dense<[[0.29, -0.28], [0.31, -1.18], [1.25, 1.29], [0.61, -1.36], [0.08, -0.69], [-1.00, 1.81]]> : tensor<6x2xf32>
  %b = stablehlo.constant dense<[[-0.19, 0.24, 1.70, -0.14, 0.03], [0.35, -1.26, 0.05, 0.52, 1.17]]> : tensor<2x5xf32>
  %seq = func.call @sequential(%a, %b) : (tensor<6x2xf32>, tensor<2x5xf32>) -> tensor<8xf32>
  %res:4 = "interpreter.run_parallel"(%a, %b, %a, %b, %a, %b, %a, %b) {programs = [[@parallel, @parallel, @parallel, @parallel]]} : (tensor<6x2xf32>, tensor<2x5xf32>, tensor<6x2xf32>, tensor<2x5xf32>, tensor<6x2xf32>, tensor<2x5xf32>, tensor<6x2xf32>, tensor<2x5xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  "check.expect_close"(%res#0, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<8xf32>, tensor<8xf32>) -> ()
  "check.expect_close"(%res#3, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<8xf32>, tensor<8xf32>) -> ()
  return
}
