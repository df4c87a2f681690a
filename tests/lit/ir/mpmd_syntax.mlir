// RUN: shardkit-opt %s | FileCheck %s
// RUN: shardkit-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: shardkit-opt %s --mlir-print-op-generic | shardkit-opt - | FileCheck %s

// CHECK-LABEL: module {
// CHECK-NEXT:   func.func public @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>) -> (!mpmd.mesh_tensor<"m2", tensor<8x4xf32>>, tensor<8x4xf32>) attributes {topology = #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["y"=4]>>>} {
// CHECK-NEXT:     %0:2 = mpmd.fragment<mesh="m1", origin=["fwd", "bwd"(2)], stage=3, in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]> (%arg0, %arg1) {tag = "t"} (%arg2: tensor<8x4xf32>, %arg3: tensor<8x4xf32>) {
// CHECK-NEXT:       %9 = stablehlo.add %arg2, %arg3 : tensor<8x4xf32>
// CHECK-NEXT:       mpmd.return %9, %arg2 : tensor<8x4xf32>, tensor<8x4xf32>
// CHECK-NEXT:     } : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>) -> (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>)
// CHECK-NEXT:     %1 = mpmd.fragment<mesh="m1", origin=[]> () () {
// CHECK-NEXT:       %cst = stablehlo.constant dense<0.000000e+00> : tensor<8x4xf32>
// CHECK-NEXT:       mpmd.return %cst : tensor<8x4xf32>
// CHECK-NEXT:     } : () -> !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
// CHECK-NEXT:     %2 = mpmd.transfer {note = 1 : i32} %0#0 : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>
// CHECK-NEXT:     %3 = mpmd.unassign %1 : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>) -> tensor<8x4xf32>
// CHECK-NEXT:     %4 = mpmd.assign {origin = "user"} %3 : (tensor<8x4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
// CHECK-NEXT:     %5 = mpmd.broadcast %3 : tensor<8x4xf32>
// CHECK-NEXT:     %6 = mpmd.reduce<max> %5, %3 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     %7 = mpmd.named_tensor %6 name="result" : tensor<8x4xf32>
// CHECK-NEXT:     %8 = mpmd.call @helper(%7) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     return %2, %8 : !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>, tensor<8x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @helper(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:     return %arg0 : tensor<8x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC-LABEL: module {
// GENERIC-NEXT:   "func.func"() <{function_type = (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>) -> (!mpmd.mesh_tensor<"m2", tensor<8x4xf32>>, tensor<8x4xf32>), sym_name = "main", sym_visibility = "public"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, %arg1: !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>):
// GENERIC-NEXT:     %0:2 = "mpmd.fragment"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>, mesh_name = "m1", origin = [#mpmd.user_origin<"fwd">, #mpmd.user_origin<"bwd"(2)>], out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]>, stage_id = 3 : i64}> ({
// GENERIC-NEXT:     ^bb0(%arg2: tensor<8x4xf32>, %arg3: tensor<8x4xf32>):
// GENERIC-NEXT:       %9 = "stablehlo.add"(%arg2, %arg3) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT:       "mpmd.return"(%9, %arg2) : (tensor<8x4xf32>, tensor<8x4xf32>) -> ()
// GENERIC-NEXT:     }) {tag = "t"} : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>) -> (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>, !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>)
// GENERIC-NEXT:     %1 = "mpmd.fragment"() <{mesh_name = "m1", origin = []}> ({
// GENERIC-NEXT:       %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
// GENERIC-NEXT:       "mpmd.return"(%9) : (tensor<8x4xf32>) -> ()
// GENERIC-NEXT:     }) : () -> !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
// GENERIC-NEXT:     %2 = "mpmd.transfer"(%0#0) {note = 1 : i32} : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>) -> !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>
// GENERIC-NEXT:     %3 = "mpmd.unassign"(%1) : (!mpmd.mesh_tensor<"m1", tensor<8x4xf32>>) -> tensor<8x4xf32>
// GENERIC-NEXT:     %4 = "mpmd.assign"(%3) <{origin = "user"}> : (tensor<8x4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
// GENERIC-NEXT:     %5 = "mpmd.broadcast"(%3) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT:     %6 = "mpmd.reduce"(%5, %3) <{reduction = #mpmd.reduction<max>}> : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT:     %7 = "mpmd.named_tensor"(%6) <{name = "result"}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT:     %8 = "mpmd.call"(%7) <{callee = @helper}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC-NEXT:     "func.return"(%2, %8) : (!mpmd.mesh_tensor<"m2", tensor<8x4xf32>>, tensor<8x4xf32>) -> ()
// GENERIC-NEXT:   }) {topology = #mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["y"=4]>>>} : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (tensor<8x4xf32>) -> tensor<8x4xf32>, sym_name = "helper", sym_visibility = "private"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: tensor<8x4xf32>):
// GENERIC-NEXT:     "func.return"(%arg0) : (tensor<8x4xf32>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }

// The mpmd op forms (registered by the mpmd layer), their generic form, and
// type aliases (`!name = type`), which print as the aliased type.
!local = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>>
!sharded = !mpmd.mesh_tensor<"m1", tensor<8x4xf32>, sharding=<@mesh, [{"x"}, {?}]>>
!remote = !mpmd.mesh_tensor<"m2", tensor<8x4xf32>>

func.func public @main(%arg0: !local, %arg1: !sharded) -> (!remote, tensor<8x4xf32>) attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["y"=4]>>>} {
  %f:2 = mpmd.fragment<mesh="m1", origin=["fwd", "bwd"(2)], stage=3, in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>], out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>]> (%arg0, %arg1) {tag = "t"} (%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) {
    %sum = stablehlo.add %a, %b : tensor<8x4xf32>
    mpmd.return %sum, %a : tensor<8x4xf32>, tensor<8x4xf32>
  } : (!local, !sharded) -> (!local, !local)
  %empty = mpmd.fragment<mesh="m1", origin=[]> () () {
    %c = stablehlo.constant dense<0.0> : tensor<8x4xf32>
    mpmd.return %c : tensor<8x4xf32>
  } : () -> !local
  %t = mpmd.transfer {note = 1 : i32} %f#0 : (!local) -> !remote
  %u = mpmd.unassign %empty : (!local) -> tensor<8x4xf32>
  %g = mpmd.assign {origin = "user"} %u : (tensor<8x4xf32>) -> !local
  %br = mpmd.broadcast %u : tensor<8x4xf32>
  %r = mpmd.reduce<max> %br, %u : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %n = mpmd.named_tensor %r name="result" : tensor<8x4xf32>
  %call = mpmd.call @helper(%n) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t, %call : !remote, tensor<8x4xf32>
}

func.func private @helper(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}
