// The whole sharding propagation pipeline, and its folding and
// simplification passes, on programs of our own.
// RUN: shardkit-opt %s -split-input-file -mpmd-sharding-propagation-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: shardkit-opt %s -split-input-file -mpmd-fold-trivial-ops | FileCheck %s --check-prefix=FOLD
// RUN: shardkit-opt %s -split-input-file -mpmd-simplify-program | FileCheck %s --check-prefix=SIMPLIFY

// A sharding given on the entry point's argument flows through the first
// fragment, across the transfer (the meshes have one shape) and into the
// second fragment and the result; the types carry it afterwards.
// PIPE-LABEL: func.func @two_stages
// PIPE-SAME:     %arg0: !mpmd.mesh_tensor<"m1", tensor<6x4xf32>, sharding=<@mesh, [{"b"}, {}]>>
// PIPE-SAME:     -> !mpmd.mesh_tensor<"m2", tensor<6x4xf32>, sharding=<@mesh, [{"b"}, {}]>>
// PIPE:        mpmd.transfer %{{.*}} : (!mpmd.mesh_tensor<"m1", tensor<6x4xf32>, sharding=<@mesh, [{"b"}, {}]>>) -> !mpmd.mesh_tensor<"m2", tensor<6x4xf32>, sharding=<@mesh, [{"b"}, {}]>>
// PIPE-NOT:    sdy.sharding
// PIPE-NOT:    in_shardings
!a = !mpmd.mesh_tensor<"m1", tensor<6x4xf32>>
!b = !mpmd.mesh_tensor<"m2", tensor<6x4xf32>>
sdy.mesh @mesh = <["a"=2, "b"=3]>
func.func @two_stages(%arg0: !a {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> !b attributes {
    topology = #mpmd.topology<<"m1": <["a"=2, "b"=3]>>, <"m2": <["a"=2, "b"=3]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["s1"]> (%arg0) (%arg1: tensor<6x4xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<6x4xf32>
    mpmd.return %1 : tensor<6x4xf32>
  } : (!a) -> !a
  %2 = mpmd.transfer %0 : (!a) -> !b
  %3 = mpmd.fragment<mesh="m2", origin=["s2"]> (%2) (%arg1: tensor<6x4xf32>) {
    %4 = stablehlo.exponential %arg1 : tensor<6x4xf32>
    mpmd.return %4 : tensor<6x4xf32>
  } : (!b) -> !b
  return %3 : !b
}

// -----

// Meshes of different shapes: no sharding crosses the transfer.
// PIPE-LABEL: func.func @different_meshes
// PIPE:        mpmd.transfer %{{.*}} : (!mpmd.mesh_tensor<"m1", tensor<6x4xf32>, sharding=<@m1, [{"b"}, {}]>>) -> !mpmd.mesh_tensor<"m2", tensor<6x4xf32>>
!a = !mpmd.mesh_tensor<"m1", tensor<6x4xf32>>
!b = !mpmd.mesh_tensor<"m2", tensor<6x4xf32>>
sdy.mesh @m1 = <["a"=2, "b"=3]>
sdy.mesh @m2 = <["c"=4]>
func.func @different_meshes(%arg0: !a {sdy.sharding = #sdy.sharding<@m1, [{"b"}, {}]>}) -> !b attributes {
    topology = #mpmd.topology<<"m1": <["a"=2, "b"=3]>>, <"m2": <["c"=4]>>>} {
  %0 = mpmd.transfer %arg0 : (!a) -> !b
  return %0 : !b
}

// -----

// FOLD-LABEL: func.func @folds
// FOLD-NEXT:    %[[M:.*]] = stablehlo.multiply %arg1, %arg0
// FOLD-NEXT:    return %[[M]]
func.func @folds(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> tensor<4xi32> {
  %zero = stablehlo.constant dense<0> : tensor<4xi32>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %0 = stablehlo.select %true, %arg1, %arg0 : tensor<i1>, tensor<4xi32>
  %1 = stablehlo.add %zero, %0 : tensor<4xi32>
  %2 = stablehlo.multiply %1, %arg0 : tensor<4xi32>
  return %2 : tensor<4xi32>
}

// -----

// A result returning a block argument becomes the operand, a duplicate
// result the first one; the argument left unused goes with its operand.
// SIMPLIFY-LABEL: func.func @simplify
// SIMPLIFY:        %[[F:.*]] = mpmd.fragment<mesh="m", origin=["f"]> (%arg1) {mpmd.inferred_by = ["x"]} (%arg2: tensor<4xf32>) {
// SIMPLIFY-NEXT:     %[[N:.*]] = stablehlo.negate %arg2
// SIMPLIFY-NEXT:     mpmd.return %[[N]] : tensor<4xf32>
// SIMPLIFY-NEXT:   } : (!mpmd.mesh_tensor<"m", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m", tensor<4xf32>>
// SIMPLIFY-NEXT:   return %[[F]], %[[F]], %arg0
!t = !mpmd.mesh_tensor<"m", tensor<4xf32>>
func.func @simplify(%arg0: !t, %arg1: !t) -> (!t, !t, !t) attributes {
    topology = #mpmd.topology<<"m": <["a"=2]>>>} {
  %0:3 = mpmd.fragment<mesh="m", origin=["f"]> (%arg0, %arg1) {mpmd.inferred_by = ["x"]} (%arg2: tensor<4xf32>, %arg3: tensor<4xf32>) {
    %1 = stablehlo.negate %arg3 : tensor<4xf32>
    mpmd.return %1, %1, %arg2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  } : (!t, !t) -> (!t, !t, !t)
  return %0#0, %0#1, %0#2 : !t, !t, !t
}
