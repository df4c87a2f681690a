// Rules the upstream cases check across functions or type aliases that
// lit-check's per-label split cannot keep together, as whole programs here.
// RUN: shardkit-opt %s -split-input-file -mpmd-introduce-transfers | FileCheck %s --check-prefix=ORDER
// RUN: shardkit-opt %s -split-input-file -mpmd-infer-mesh-populate-use-set | FileCheck %s --check-prefix=USE

// A value assigned to several meshes travels along one chain of transfers in
// natural mesh-name order (m2 before m10), whatever the order of the assigns.
// ORDER-LABEL: func.func @chain
// ORDER-NEXT:    %[[TO2:.*]] = mpmd.transfer %arg0 : {{.*}}"m1"{{.*}} -> {{.*}}"m2"
// ORDER-NEXT:    %[[TO10:.*]] = mpmd.transfer %[[TO2]] : {{.*}}"m2"{{.*}} -> {{.*}}"m10"
// ORDER-NEXT:    return %[[TO10]], %[[TO2]]
!t1 = !mpmd.mesh_tensor<"m1", tensor<2x2xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<2x2xf32>>
!t10 = !mpmd.mesh_tensor<"m10", tensor<2x2xf32>>
func.func @chain(%arg0: !t1) -> (!t10, !t2) attributes {
    topology = #mpmd.topology<<"m1": <["a"=2]>>, <"m2": <["a"=2]>>, <"m10": <["a"=2]>>>} {
  %u = mpmd.unassign %arg0 : (!t1) -> tensor<2x2xf32>
  %to10 = mpmd.assign %u : (tensor<2x2xf32>) -> !t10
  %to2 = mpmd.assign %u : (tensor<2x2xf32>) -> !t2
  return %to10, %to2 : !t10, !t2
}

// -----

// A callee shared by two chained calls: each call site adds what its users
// need to the callee's results, and the swap moves it to the other argument,
// so the use sets only settle after more rounds than there are calls: every
// argument and result of @swap ends up needed on both meshes.
// USE-LABEL: func.func @main(
// USE-SAME:    %arg0: tensor<2x2xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m{{[12]}}", "m{{[12]}}">}
// USE-SAME:    %arg1: tensor<2x2xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m{{[12]}}", "m{{[12]}}">}
// USE:         mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m1">}
// USE:         mpmd.assign {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// USE-LABEL: func.func private @swap(
// USE-SAME:    %arg0: tensor<2x2xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m{{[12]}}", "m{{[12]}}">}
// USE-SAME:    %arg1: tensor<2x2xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m{{[12]}}", "m{{[12]}}">}
// USE-SAME:    -> (tensor<2x2xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m{{[12]}}", "m{{[12]}}">},
// USE-SAME:        tensor<2x2xf32> {mpmd.use_set = #mpmd.meshes_with_origins<"m{{[12]}}", "m{{[12]}}">})
!t1 = !mpmd.mesh_tensor<"m1", tensor<2x2xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<2x2xf32>>
func.func @main(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> (!t1, !t2) attributes {
    topology = #mpmd.topology<<"m1": <["a"=2]>>, <"m2": <["a"=2]>>>} {
  %c1:2 = mpmd.call @swap(%x, %y) : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  %c2:2 = mpmd.call @swap(%c1#0, %c1#1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  %a1 = mpmd.assign %c2#0 : (tensor<2x2xf32>) -> !t1
  %a2 = mpmd.assign %c2#1 : (tensor<2x2xf32>) -> !t2
  return %a1, %a2 : !t1, !t2
}
func.func private @swap(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) attributes {
    topology = #mpmd.topology<<"m1": <["a"=2]>>, <"m2": <["a"=2]>>>} {
  return %b, %a : tensor<2x2xf32>, tensor<2x2xf32>
}
