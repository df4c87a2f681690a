// -sdy-import-gspmd-shardings reads mhlo.sharding into sdy.sharding;
// -sdy-export-gspmd-shardings writes it back (docs/gspmd.md).
// RUN: shardkit-opt %s -sdy-import-gspmd-shardings | FileCheck %s
// RUN: shardkit-opt %s -sdy-import-gspmd-shardings \
// RUN:   -sdy-export-gspmd-shardings | FileCheck %s --check-prefix=BACK

sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// CHECK-LABEL: func @main
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {"x", "y"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
// CHECK:         stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[3]>, []>]>}
// CHECK:         stablehlo.optimization_barrier
// CHECK-SAME:      {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y", "z"}, {}]>, <@mesh, [{}, {"y"}]>]>}
// BACK-LABEL: func @main
// BACK-SAME:    %arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"}
// BACK-SAME:    %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}
// BACK-SAME:    -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"})
// BACK:         stablehlo.add %arg0, %arg1 {mhlo.sharding = "{maximal device=3}"}
// BACK:         mhlo.sharding = "{{[{]}}{devices=[8,1]<=[8]}, {devices=[1,2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}}"
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"},
                %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"})
    -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) {
  %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{maximal device=3}"} : tensor<8x8xf32>
  %1:2 = "stablehlo.optimization_barrier"(%0, %arg1) {mhlo.sharding = "{{devices=[8,1]<=[8]}, {devices=[1,2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}}"} : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %1#0 : tensor<8x8xf32>
}
