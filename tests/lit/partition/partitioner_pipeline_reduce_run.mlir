// A reduction over a dimension the mesh does not divide, proven by running
// it: the padded rows (exp of a zero pad is 1) must not enter the sum, so
// -sdy-pad-for-divisibility sets them to the reduction's init value first.
// Without that mask device results were off by one per padded row.
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   -sdy-partitioner-pipeline=partition-count=2 \
// RUN:   | shardkit-opt --interpret - 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
// RUN: shardkit-opt %s --allow-unregistered-dialect \
// RUN:   --sdy-insert-explicit-reshards=enable-full-version=true \
// RUN:   --sdy-reshard-to-collectives --sdy-pad-for-divisibility \
// RUN:   | FileCheck %s --check-prefix=MASK
// CHECK-NOT: error
// MASK-LABEL: func.func @parallel
// MASK:      %[[EXP:.*]] = stablehlo.exponential %{{.*}} : tensor<6x4xf32>
// MASK-NEXT: %[[INIT:.*]] = stablehlo.constant dense<0.000000e+00>
// MASK:      %[[MASK:.*]] = stablehlo.compare  LT
// MASK-NEXT: %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[INIT]], dims = []
// MASK-NEXT: %[[SEL:.*]] = stablehlo.select %[[MASK]], %[[EXP]], %[[FILL]]
// MASK-NEXT: stablehlo.reduce(%[[SEL]] init: %[[INIT]]) applies stablehlo.add across dimensions = [0] {{.*}} : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32>

sdy.mesh @m = <["x"=2]>

func.func @parallel(%arg0: tensor<5x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  %0 = sdy.reshard %arg0 <@m, [{"x"}, {}]> : tensor<5x4xf32>
  %1 = stablehlo.exponential %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<5x4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}]>]>} : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

func.func @sequential(%arg0: tensor<5x4xf32>) -> tensor<4xf32> {
  %1 = stablehlo.exponential %arg0 : tensor<5x4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

func.func @main() {
  %a = stablehlo.constant dense<[[0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 0.0]]> : tensor<5x4xf32>
  %seq = func.call @sequential(%a) : (tensor<5x4xf32>) -> tensor<4xf32>
  %res:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@parallel, @parallel]]} : (tensor<5x4xf32>, tensor<5x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  "check.expect_close"(%res#0, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 8 : ui64} : (tensor<4xf32>, tensor<4xf32>) -> ()
  "check.expect_close"(%res#1, %seq) {min_ulp_difference = 0 : ui64, max_ulp_difference = 8 : ui64} : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}
