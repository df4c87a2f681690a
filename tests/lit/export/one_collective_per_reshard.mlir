// One reshard per collective kind (docs/export.md, "One reshard per
// collective"): each lowers to that collective, and the check proves it.
// RUN: shardkit-opt %s -sdy-reshard-to-collectives -canonicalize=enable-patterns=sdy-collective -sdy-check-collectives | FileCheck %s

sdy.mesh @m = <["x"=2, "y"=2]>
sdy.mesh @m_rev = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
// CHECK-LABEL: func @all_gather
// CHECK-NEXT: sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@m, [{"x"}, {}]>
func.func @all_gather(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_slice
// CHECK-NEXT: sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@m, [{"x"}, {"y"}]>
func.func @all_slice(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_to_all
// CHECK-NEXT: sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@m, [{}, {"x"}]>
func.func @all_to_all(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @collective_permute
// CHECK-NEXT: sdy.collective_permute %arg0 out_sharding=<@m, [{"y"}, {"x"}]>
func.func @collective_permute(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @permute_mesh
// CHECK-NEXT: sdy.collective_permute %arg0 out_sharding=<@m_rev, [{"x"}, {}]>
func.func @permute_mesh(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m_rev, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_reduce
// CHECK-NEXT: sdy.all_reduce {"y"} %arg0 out_sharding=<@m, [{"x"}, {}]>
func.func @all_reduce(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @reduce_scatter
// CHECK-NEXT: sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@m, [{"x"}, {"y"}]>
func.func @reduce_scatter(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @sharded_to_unreduced
// CHECK-NEXT: sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}>
func.func @sharded_to_unreduced(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @replicated_to_unreduced
// CHECK-NEXT: sdy.replicated_to_unreduced {"y"} %arg0 out_sharding=<@m, [{"x"}, {}], unreduced={"y"}>
func.func @replicated_to_unreduced(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
