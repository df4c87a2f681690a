// Bad mpmd input: located errors and exit 1.
// RUN: not shardkit-opt %s -split-input-file 2>&1 >/dev/null | FileCheck %s
// A malformed option is reported before anything is written.
// RUN: not shardkit-opt $(dirname %s)/import_pipeline_two_stages.mlir -mpmd-import-pipeline="name-to-mesh-assignment=stage1" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not shardkit-opt $(dirname %s)/import_pipeline_two_stages.mlir -mpmd-import-pipeline="name-to-mesh-assignmnt=stage1@m1" 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not shardkit-opt $(dirname %s)/import_pipeline_two_stages.mlir -mpmd-map-named-ops-to-mpmd-ops="assignment=stage1@m1,stage2@" 2>&1 | FileCheck %s --check-prefix=EMPTY

// OPTION-NOT: module
// OPTION: import_pipeline_two_stages.mlir:1:1: error: invalid 'name-to-mesh-assignment' option: Assignment must contain '@'
// OPTION-NOT: module
// KEY: shardkit-opt: error: pass '-mpmd-import-pipeline' has no option 'name-to-mesh-assignmnt'
// EMPTY-NOT: module
// EMPTY: import_pipeline_two_stages.mlir:1:1: error: invalid 'assignment' option: Assignment needs a name before '@' and a mesh after it, got: stage2@

// A mesh that is not in the topology.
// CHECK: bad_input.mlir:[[# @LINE + 3]]:3: error: Topology doesn't have a mesh with name: m3
func.func @main(%arg0: !mpmd.mesh_tensor<"m3", tensor<4xf32>>) -> tensor<4xf32> attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.unassign %arg0 : (!mpmd.mesh_tensor<"m3", tensor<4xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An op outside its allowed parents.
// CHECK: bad_input.mlir:[[# @LINE + 5]]:5: error: 'mpmd.assign' op expects parent op to be one of 'func.func, mpmd.for'
!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
func.func @nested(%arg0: !m1) -> !m1 attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4xf32>) {
    %1 = mpmd.assign %a : (tensor<4xf32>) -> !m1
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  return %0 : !m1
}

// -----

// A reduction kind that does not exist.
// CHECK: bad_input.mlir:[[# @LINE + 2]]:20: error: expected reduction kind
func.func @reduce(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.reduce<xor> %arg0 : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
