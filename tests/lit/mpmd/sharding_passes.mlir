// The mpmd sharding passes one at a time, on programs of our own.
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges | FileCheck %s --check-prefix=ADD
// RUN: shardkit-opt %s -split-input-file -sdy-add-data-flow-edges -sdy-sink-data-flow-edges | FileCheck %s --check-prefix=ROUND
// RUN: shardkit-opt %s -split-input-file -mpmd-populate-unreduced-out-sharding | FileCheck %s --check-prefix=UNREDUCED
// RUN: shardkit-opt %s -split-input-file -mpmd-convert-sdy-shardings-to-mpmd-types 2>/dev/null | FileCheck %s --check-prefix=TYPES
// RUN: shardkit-opt %s -split-input-file -mpmd-convert-sdy-shardings-to-mpmd-types 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// A fragment's body arguments and results own data-flow edges with the
// fragment's in/out shardings; a result edge wraps the mesh tensor.
// ADD-LABEL: func.func @fragment_edges
// ADD:         %[[E0:.*]] = sdy.data_flow_edge %arg2 sharding=<@mesh, [{}, {"a"}]> : tensor<4x6xf32>
// ADD-NEXT:    %[[E1:.*]] = sdy.data_flow_edge %arg3 : tensor<4x6xf32>
// ADD-NEXT:    stablehlo.subtract %[[E0]], %[[E1]]
// ADD:         %[[R:.*]] = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}, {?}]> : !mpmd.mesh_tensor<"m", tensor<4x6xf32>>
// ADD-NEXT:    return %[[R]]
// Sinking puts them back; the argument without a sharding gets an open one.
// ROUND-LABEL: func.func @fragment_edges
// ROUND-NOT:   sdy.data_flow_edge
// ROUND:       mpmd.fragment<mesh="m", origin=["f"], in_shardings=[<@mesh, [{}, {"a"}]>, <@mesh, [{?}, {?}]>], out_shardings=[<@mesh, [{"a", ?}, {?}]>]>
// UNREDUCED-LABEL: func.func @fragment_edges
// UNREDUCED:   mpmd.fragment<mesh="m", origin=["f"], in_shardings=[<@mesh, [{}, {"a"}]>], out_shardings=[<@mesh, [{"a", ?}, {?}]>]>
// TYPES-LABEL: func.func @fragment_edges
// TYPES-SAME:    %arg0: !mpmd.mesh_tensor<"m", tensor<4x6xf32>, sharding=<@mesh, [{}, {"a"}]>>
// TYPES-SAME:    -> !mpmd.mesh_tensor<"m", tensor<4x6xf32>, sharding=<@mesh, [{"a", ?}, {?}]>>
// TYPES-NOT:   in_shardings
!t = !mpmd.mesh_tensor<"m", tensor<4x6xf32>>
sdy.mesh @mesh = <["a"=2, "b"=3]>
func.func @fragment_edges(%arg0: !t, %arg1: !t) -> !t attributes {
    topology = #mpmd.topology<<"m": <["a"=2, "b"=3]>>>} {
  %0 = mpmd.fragment<mesh="m", origin=["f"], in_shardings=[<@mesh, [{}, {"a"}]>], out_shardings=[<@mesh, [{"a", ?}, {?}]>]> (%arg0, %arg1) (%arg2: tensor<4x6xf32>, %arg3: tensor<4x6xf32>) {
    %1 = stablehlo.subtract %arg2, %arg3 : tensor<4x6xf32>
    mpmd.return %1 : tensor<4x6xf32>
  } : (!t, !t) -> !t
  return %0 : !t
}

// -----

// A loop's results own its edges; their shardings are the loop's
// `sdy.sharding`, which the types take along with the loop's body arguments.
// ADD-LABEL: func.func @loop_edges
// ADD:         mpmd.for
// ADD:         %[[L:.*]] = sdy.data_flow_edge %0 sharding=<@mesh, [{"b", ?}]> : !mpmd.mesh_tensor<"m", tensor<6xf32>>
// ADD-NEXT:    return %[[L]]
// ROUND-LABEL: func.func @loop_edges
// ROUND:       sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>
// TYPES-LABEL: func.func @loop_edges
// TYPES:       mpmd.for (%arg0) {iterations = 2 : ui32, unroll_factor = 1 : ui32} (%arg1: !mpmd.mesh_tensor<"m", tensor<6xf32>, sharding=<@mesh, [{"b", ?}]>>, %index: tensor<ui32>)
// TYPES:       } : !mpmd.mesh_tensor<"m", tensor<6xf32>, sharding=<@mesh, [{"b", ?}]>>
!v = !mpmd.mesh_tensor<"m", tensor<6xf32>>
sdy.mesh @mesh = <["a"=2, "b"=3]>
func.func @loop_edges(%arg0: !v {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>}) -> !v attributes {
    topology = #mpmd.topology<<"m": <["a"=2, "b"=3]>>>} {
  %0 = mpmd.for (%arg0) {iterations = 2 : ui32, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>, unroll_factor = 1 : ui32} (%arg1: !v, %index: tensor<ui32>) {
    mpmd.return %arg1 : !v
  } : !v
  return %0 : !v
}

// -----

// Only a returned constraint with unreduced axes changes an out_sharding;
// the others become fully closed ones on the constraint's mesh.
// UNREDUCED-LABEL: func.func @unreduced
// UNREDUCED:   out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}], unreduced={"b"}>]
!u = !mpmd.mesh_tensor<"m", tensor<3x4xf32>>
sdy.mesh @mesh = <["a"=2, "b"=3]>
func.func @unreduced(%arg0: !u) -> (!u, !u) attributes {
    topology = #mpmd.topology<<"m": <["a"=2, "b"=3]>>>} {
  %0:2 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0) (%arg1: tensor<3x4xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{}, {}], unreduced={"b"}> : tensor<3x4xf32>
    mpmd.return %arg1, %1 : tensor<3x4xf32>, tensor<3x4xf32>
  } : (!u) -> (!u, !u)
  return %0#0, %0#1 : !u, !u
}

// -----

// A transfer whose two sides are sharded differently on one sdy mesh is
// reported, and the module is still written.
// REPORT: sharding_passes.mlir:[[# @LINE + 8]]:3: error: Transfer op has different shardings for the operand and result on the same mesh, operand sharding: #sdy.sharding<@mesh, [{"a"}, {}]>, result sharding: #sdy.sharding<@mesh, [{}, {"b"}]>
// TYPES-LABEL: func.func @resharding_transfer
// TYPES:       mpmd.transfer %arg0 : (!mpmd.mesh_tensor<"m1", tensor<4x6xf32>, sharding=<@mesh, [{"a"}, {}]>>) -> !mpmd.mesh_tensor<"m2", tensor<4x6xf32>, sharding=<@mesh, [{}, {"b"}]>>
!a = !mpmd.mesh_tensor<"m1", tensor<4x6xf32>>
!b = !mpmd.mesh_tensor<"m2", tensor<4x6xf32>>
sdy.mesh @mesh = <["a"=2, "b"=3]>
func.func @resharding_transfer(%arg0: !a {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> !b attributes {
    topology = #mpmd.topology<<"m1": <["a"=2, "b"=3]>>, <"m2": <["a"=2, "b"=3]>>>} {
  %0 = mpmd.transfer {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} %arg0 : (!a) -> !b
  return %0 : !b
}
