// RUN: shardkit-opt %s -sdy-lift-inlined-meshes | FileCheck %s

// A function called @mesh takes the name, so the first new mesh is @mesh_0;
// the duplicate @dup is dropped and its uses (in shardings and in replica
// groups) refer to @m; an inlined StableHLO mesh equal to a lifted one reuses
// it; an inlined empty mesh becomes @empty_mesh.
// CHECK:      sdy.mesh @m = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @mesh_0 = <["y"=4]> {stablehlo.mesh = {axes = [{name = "y", size = 4 : i64}]}}
// CHECK-NEXT: sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
// CHECK-NOT:  sdy.mesh
sdy.mesh @m = <["x"=2]>
sdy.mesh @dup = <["x"=2]>

// CHECK-LABEL: func @mesh(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"y"}]>}
func.func @mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["y"=4]>, [{"y"}]>}) -> tensor<8xf32> {
  // CHECK-NEXT: "stablehlo.all_gather"
  // CHECK-SAME:   replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x">]>
  // CHECK-NEXT: "stablehlo.all_reduce"
  // CHECK-SAME:   replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "y">]>
  // CHECK:      sdy.sharding_constraint %{{.*}} <@m, [{"x"}]>
  // CHECK-NEXT: sdy.sharding_constraint %{{.*}} <@empty_mesh, [{}]>
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @dup, axes = [#stablehlo.axis_ref<name = "x">]>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.all_reduce"(%0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %2 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %2 : tensor<f32>
  }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "y">]>} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.sharding_constraint %1 <@dup, [{"x"}]> : tensor<8xf32>
  %4 = sdy.sharding_constraint %3 <mesh<[]>, [{}]> : tensor<8xf32>
  return %4 : tensor<8xf32>
}
