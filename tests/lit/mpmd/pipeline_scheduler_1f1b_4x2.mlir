// RUN: shardkit-opt %s -mpmd-pipeline-scheduler='must-happen-before=1F1B' | FileCheck %s
// RUN: shardkit-opt %s -mpmd-pipeline-scheduler='must-happen-before=GPipe' | FileCheck %s --check-prefix=GPIPE
// RUN: shardkit-opt %s -mpmd-optimize-pipeline | FileCheck %s

// Two stages (m1, m2), four microbatches, written in GPipe order (every
// forward, then every backward). 1F1B lets mesh k run 2 - k forwards before
// its first backward, then alternates: m1 runs F0 F1 B0 F2 B1 F3 B2 B3 and m2 runs
// F0 B0 F1 B1 F2 B2 F3 B3. Data flow still orders the meshes between them.

!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>

// CHECK-LABEL: func.func @main
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"]> {{.*}}call_counter = 0
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"]> {{.*}}call_counter = 0
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"]> {{.*}}call_counter = 1
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"(1)]> {{.*}}call_counter = 0
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"(1)]> {{.*}}call_counter = 0
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"]> {{.*}}call_counter = 1
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"]> {{.*}}call_counter = 2
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"(1)]> {{.*}}call_counter = 1
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"(1)]> {{.*}}call_counter = 1
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"]> {{.*}}call_counter = 2
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"]> {{.*}}call_counter = 3
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"(1)]> {{.*}}call_counter = 2
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"(1)]> {{.*}}call_counter = 2
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"]> {{.*}}call_counter = 3
// CHECK:      mpmd.fragment<mesh="m2", origin=["s2"(1)]> {{.*}}call_counter = 3
// CHECK:      mpmd.fragment<mesh="m1", origin=["s1"(1)]> {{.*}}call_counter = 3
// GPIPE-LABEL: func.func @main
// GPIPE: mpmd.fragment<mesh="m1", origin=["s1"]> {{.*}}call_counter = 3
// GPIPE: mpmd.fragment<mesh="m1", origin=["s1"(1)]> {{.*}}call_counter = 0
func.func @main(%x: !m1) -> !m1 attributes {
    topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>>} {
  %f1_0 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 0 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  %t1_0 = mpmd.transfer %f1_0 : (!m1) -> !m2
  %f2_0 = mpmd.fragment<mesh="m2", origin=["s2"]> (%t1_0) {call_counter = 0 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %f1_1 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 1 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  %t1_1 = mpmd.transfer %f1_1 : (!m1) -> !m2
  %f2_1 = mpmd.fragment<mesh="m2", origin=["s2"]> (%t1_1) {call_counter = 1 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %f1_2 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 2 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  %t1_2 = mpmd.transfer %f1_2 : (!m1) -> !m2
  %f2_2 = mpmd.fragment<mesh="m2", origin=["s2"]> (%t1_2) {call_counter = 2 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %f1_3 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 3 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1) -> !m1
  %t1_3 = mpmd.transfer %f1_3 : (!m1) -> !m2
  %f2_3 = mpmd.fragment<mesh="m2", origin=["s2"]> (%t1_3) {call_counter = 3 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %b2_0 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%f2_0) {call_counter = 0 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %t2_0 = mpmd.transfer %b2_0 : (!m2) -> !m1
  %b1_0 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%t2_0, %f1_0) {call_counter = 0 : ui32} (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %b2_1 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%f2_1) {call_counter = 1 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %t2_1 = mpmd.transfer %b2_1 : (!m2) -> !m1
  %b1_1 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%t2_1, %f1_1) {call_counter = 1 : ui32} (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %b2_2 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%f2_2) {call_counter = 2 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %t2_2 = mpmd.transfer %b2_2 : (!m2) -> !m1
  %b1_2 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%t2_2, %f1_2) {call_counter = 2 : ui32} (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %b2_3 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%f2_3) {call_counter = 3 : ui32} (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m2) -> !m2
  %t2_3 = mpmd.transfer %b2_3 : (!m2) -> !m1
  %b1_3 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%t2_3, %f1_3) {call_counter = 3 : ui32} (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  func.return %b1_3 : !m1
}
