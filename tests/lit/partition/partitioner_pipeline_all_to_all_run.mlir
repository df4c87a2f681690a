// An all_to_all that must pad a dimension its operand already shards (6
// rows on "y", to be 8 on "y" and "x"): padding the sharded operand left
// zeros and padding values where device rows belonged. Now it runs as a
// gather, a pad of the whole dimension and a slice.
// (Found by running random programs against their unpartitioned twins.)
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   -sdy-partitioner-pipeline=partition-count=4 \
// RUN:   | shardkit-opt --interpret - 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// CHECK-NOT: error

sdy.mesh @m = <["x"=2, "y"=2]>
func.func @parallel(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<6x3xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %pv = stablehlo.constant dense<0.75> : tensor<f32>
  %v0 = stablehlo.slice %arg0 [0:6, 1:2] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {"y"}]>]>} : (tensor<6x2xf32>) -> tensor<6x1xf32>
  %v1 = stablehlo.sine %v0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y"}, {"x"}]>]>} : tensor<6x1xf32>
  %v2 = stablehlo.pad %v1, %pv, low = [0, 2], high = [0, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"y", "x"}, {}]>]>} : (tensor<6x1xf32>, tensor<f32>) -> tensor<6x3xf32>
  %b5 = stablehlo.broadcast_in_dim %pv, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y", "x"}]>]>} : (tensor<f32>) -> tensor<6x3xf32>
  %v4 = stablehlo.add %v2, %b5 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y", "x"}]>]>} : tensor<6x3xf32>
  %r = sdy.reshard %v4 <@m, [{}, {}]> : tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}
func.func @sequential(%arg0: tensor<6x2xf32>) -> tensor<6x3xf32> {
  %pv = stablehlo.constant dense<0.75> : tensor<f32>
  %v0 = stablehlo.slice %arg0 [0:6, 1:2] : (tensor<6x2xf32>) -> tensor<6x1xf32>
  %v1 = stablehlo.sine %v0 : tensor<6x1xf32>
  %v2 = stablehlo.pad %v1, %pv, low = [0, 2], high = [0, 0], interior = [0, 0] : (tensor<6x1xf32>, tensor<f32>) -> tensor<6x3xf32>
  %b5 = stablehlo.broadcast_in_dim %pv, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
  %v4 = stablehlo.add %v2, %b5 : tensor<6x3xf32>
  return %v4 : tensor<6x3xf32>
}
func.func @main() {
  %a = stablehlo.constant dense<[[0.19, -0.62], [1.38, -0.85], [0.04, -0.62], [-0.34, 1.90], [-1.59, -0.22], [-1.10, -0.60]]> : tensor<6x2xf32>
  %seq = func.call @sequential(%a) : (tensor<6x2xf32>) -> tensor<6x3xf32>
  %res:4 = "interpreter.run_parallel"(%a, %a, %a, %a) {programs = [[@parallel, @parallel, @parallel, @parallel]]} : (tensor<6x2xf32>, tensor<6x2xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> (tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>)
  "check.expect_close"(%res#0, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<6x3xf32>, tensor<6x3xf32>) -> ()
  "check.expect_close"(%res#1, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<6x3xf32>, tensor<6x3xf32>) -> ()
  "check.expect_close"(%res#2, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<6x3xf32>, tensor<6x3xf32>) -> ()
  "check.expect_close"(%res#3, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 64 : ui64} : (tensor<6x3xf32>, tensor<6x3xf32>) -> ()
  return
}
