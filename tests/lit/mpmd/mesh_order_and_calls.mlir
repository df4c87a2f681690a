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

// -----

// A loop whose body calls a function: what the loop's result is needed on
// flows back through the call into the callee (its arguments and result) and
// onto the loop's block arguments, the index included.
// USE-LABEL: func.func @loop_calls(
// USE-SAME:    %arg0: tensor<i32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// USE:         mpmd.for {{.*}}arg_attrs = [{mpmd.use_set = #mpmd.meshes_with_origins<"m2">}, {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}]
// USE:         mpmd.call @step
// USE-LABEL: func.func private @step(
// USE-SAME:    %arg0: tensor<i32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// USE-SAME:    %arg1: tensor<i32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">}
// USE-SAME:    -> (tensor<i32> {mpmd.use_set = #mpmd.meshes_with_origins<"m2">})
// USE-NEXT:    stablehlo.subtract {{.*}}mpmd.use_set = #mpmd.meshes_with_origins<"m2">
func.func @loop_calls(%arg0: tensor<i32>) -> !mpmd.mesh_tensor<"m2", tensor<i32>> attributes {
    topology = #mpmd.topology<<"m1": <["a"=2]>>, <"m2": <["a"=2]>>>} {
  %0 = mpmd.for (%arg0) {iterations = 4 : ui32, unroll_factor = 1 : ui32} (%acc: tensor<i32>, %i: tensor<i32>) {
    %1 = mpmd.call @step(%acc, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    mpmd.return %1 : tensor<i32>
  } : tensor<i32>
  %2 = mpmd.assign %0 : (tensor<i32>) -> !mpmd.mesh_tensor<"m2", tensor<i32>>
  return %2 : !mpmd.mesh_tensor<"m2", tensor<i32>>
}
func.func private @step(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> attributes {
    topology = #mpmd.topology<<"m1": <["a"=2]>>, <"m2": <["a"=2]>>>} {
  %0 = stablehlo.subtract %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
