// Replica groups given by mesh axes (`#stablehlo.replica_group_mesh_axes`):
// the devices that differ only along the axes, ordered by their coordinate
// along them (the first axis major). The twin chunk orders the axes the
// other way, which changes the order of the gathered blocks.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

sdy.mesh @mesh = <["x"=2, "y"=2]>
// Along "y": groups [0, 1] and [2, 3]. Along ["y", "x"]: one group in the
// order 0, 2, 1, 3.
func.func @along_y(%v: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%v) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @along_yx(%v: tensor<1xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_gather"(%v) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "x">]>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// An inline mesh with its own device order, and a sub-axis: "x":(1)2 of an
// axis of 4 is the major digit of its coordinate.
func.func @inline(%v: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%v) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [<name = "x", size = 4>], device_ids = dense<[3, 2, 1, 0]> : tensor<4xi64>>, axes = [#stablehlo.axis_ref<name = "x", sub_axis_info = (1)2>]>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[10]> : tensor<1xi32>
  %b = stablehlo.constant dense<[11]> : tensor<1xi32>
  %c = stablehlo.constant dense<[12]> : tensor<1xi32>
  %d = stablehlo.constant dense<[13]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@along_y, @along_y, @along_y, @along_y]]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[10, 11]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<[12, 13]> : tensor<2xi32>
  %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@along_yx, @along_yx, @along_yx, @along_yx]]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %s#1, dense<[10, 12, 11, 13]> : tensor<4xi32>
  // Devices 3, 2, 1, 0 in mesh order: the groups along the major digit of x
  // are [3, 1] and [2, 0].
  %t:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@inline, @inline, @inline, @inline]]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %t#0, dense<[12, 10]> : tensor<2xi32>
  check.expect_eq_const %t#3, dense<[13, 11]> : tensor<2xi32>
  return
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @along_xy(%v: tensor<1xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_gather"(%v) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">, #stablehlo.axis_ref<name = "y">]>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[10]> : tensor<1xi32>
  %b = stablehlo.constant dense<[11]> : tensor<1xi32>
  %c = stablehlo.constant dense<[12]> : tensor<1xi32>
  %d = stablehlo.constant dense<[13]> : tensor<1xi32>
  %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@along_xy, @along_xy, @along_xy, @along_xy]]} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  // CHECK: mesh_axes_groups.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 11 (actual) vs 12 (expected) at index [1]
  check.expect_eq_const %s#1, dense<[10, 12, 11, 13]> : tensor<4xi32>
  return
}
