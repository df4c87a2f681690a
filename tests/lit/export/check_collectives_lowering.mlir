// -sdy-check-collectives runs every chain of collectives on host data.
// RUN: shardkit-opt %s -sdy-insert-explicit-reshards=enable-full-version=true -sdy-reshard-to-collectives -sdy-check-collectives | FileCheck %s

// Lowered reshards, and the all-reduce of a dot's partial sums, check out.
// CHECK-LABEL: func @lowered
// CHECK:       sdy.all_reduce {"y"}
// CHECK:       sdy.all_to_all
// CHECK-NOT:   sdy.reshard
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @lowered(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                   %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

