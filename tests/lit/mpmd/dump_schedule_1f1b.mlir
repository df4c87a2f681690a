// RUN: shardkit-opt %s -mpmd-pipeline-scheduler='must-happen-before=1F1B' --dump-schedule=json | FileCheck %s
// RUN: shardkit-opt %s -mpmd-pipeline-scheduler='must-happen-before=1F1B' --dump-schedule=svg | FileCheck %s --check-prefix=SVG
// RUN: shardkit-opt %s --dump-schedule=json | FileCheck %s --check-prefix=UNSCHEDULED

// A 4-stage pipeline (m1..m4) of 8 microbatches, written stage by stage
// (all of stage 1's forwards first). With 1F1B, unit-time fragments and
// free transfers, each mesh is busy 2m = 16 of 2(m + p - 1) = 22 time
// units: the bubble is (p - 1) / (m + p - 1) = 3/11.

// CHECK:      "function": "main",
// CHECK-NEXT: "meshes": ["m1", "m2", "m3", "m4"],
// CHECK-NEXT: "makespan": 22,
// CHECK-NEXT: "bubble_fraction": 0.272727,
// The first backward of m1 (microbatch 0) starts once the four forwards
// and the backwards of the later stages are done: at 2p - 1 = 7.
// CHECK:      "mesh": "m1", "origins": "[s1]", "phase": "backward", "microbatch": 0, "stage": null, "start": 7, "end": 8}
// CHECK:      "transfers": [{"from":

// SVG:      <svg xmlns="http://www.w3.org/2000/svg"
// SVG:      <text x="4" y="{{[0-9]+}}">m4</text>
// SVG:      main: makespan 22, bubble 0.272727

// Unscheduled, the program is GPipe: the same bubble, but m1 runs all
// eight forwards (holding their activations) before its first backward,
// which starts at m + 2(p - 1) = 14.
// UNSCHEDULED:      "makespan": 22,
// UNSCHEDULED-NEXT: "bubble_fraction": 0.272727,
// UNSCHEDULED:      "mesh": "m1", "origins": "[s1]", "phase": "backward", "microbatch": 0, "stage": null, "start": 14, "end": 15}


!m1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!m2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>
!m3 = !mpmd.mesh_tensor<"m3", tensor<4xf32>>
!m4 = !mpmd.mesh_tensor<"m4", tensor<4xf32>>

func.func @main(%x: !m1) -> !m1 attributes {
    topology = #mpmd.topology<<"m1": <["x"=1]>>, <"m2": <["x"=1]>>, <"m3": <["x"=1]>>, <"m4": <["x"=1]>>>} {
  %f1_0 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 0 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_1 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 1 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_2 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 2 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_3 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 3 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_4 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 4 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_5 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 5 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_6 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 6 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %f1_7 = mpmd.fragment<mesh="m1", origin=["s1"]> (%x) {call_counter = 7 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1) -> !m1
  %tf2_0 = mpmd.transfer %f1_0 : (!m1) -> !m2
  %f2_0 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_1 = mpmd.transfer %f1_1 : (!m1) -> !m2
  %f2_1 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_2 = mpmd.transfer %f1_2 : (!m1) -> !m2
  %f2_2 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_3 = mpmd.transfer %f1_3 : (!m1) -> !m2
  %f2_3 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_4 = mpmd.transfer %f1_4 : (!m1) -> !m2
  %f2_4 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_5 = mpmd.transfer %f1_5 : (!m1) -> !m2
  %f2_5 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_6 = mpmd.transfer %f1_6 : (!m1) -> !m2
  %f2_6 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf2_7 = mpmd.transfer %f1_7 : (!m1) -> !m2
  %f2_7 = mpmd.fragment<mesh="m2", origin=["s2"]> (%tf2_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2) -> !m2
  %tf3_0 = mpmd.transfer %f2_0 : (!m2) -> !m3
  %f3_0 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_1 = mpmd.transfer %f2_1 : (!m2) -> !m3
  %f3_1 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_2 = mpmd.transfer %f2_2 : (!m2) -> !m3
  %f3_2 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_3 = mpmd.transfer %f2_3 : (!m2) -> !m3
  %f3_3 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_4 = mpmd.transfer %f2_4 : (!m2) -> !m3
  %f3_4 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_5 = mpmd.transfer %f2_5 : (!m2) -> !m3
  %f3_5 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_6 = mpmd.transfer %f2_6 : (!m2) -> !m3
  %f3_6 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf3_7 = mpmd.transfer %f2_7 : (!m2) -> !m3
  %f3_7 = mpmd.fragment<mesh="m3", origin=["s3"]> (%tf3_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3) -> !m3
  %tf4_0 = mpmd.transfer %f3_0 : (!m3) -> !m4
  %f4_0 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_1 = mpmd.transfer %f3_1 : (!m3) -> !m4
  %f4_1 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_2 = mpmd.transfer %f3_2 : (!m3) -> !m4
  %f4_2 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_3 = mpmd.transfer %f3_3 : (!m3) -> !m4
  %f4_3 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_4 = mpmd.transfer %f3_4 : (!m3) -> !m4
  %f4_4 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_5 = mpmd.transfer %f3_5 : (!m3) -> !m4
  %f4_5 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_6 = mpmd.transfer %f3_6 : (!m3) -> !m4
  %f4_6 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tf4_7 = mpmd.transfer %f3_7 : (!m3) -> !m4
  %f4_7 = mpmd.fragment<mesh="m4", origin=["s4"]> (%tf4_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_0 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_1 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_2 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_3 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_4 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_5 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_6 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %b4_7 = mpmd.fragment<mesh="m4", origin=["s4"(1)]> (%f4_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m4) -> !m4
  %tb3_0 = mpmd.transfer %b4_0 : (!m4) -> !m3
  %b3_0 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_0, %f3_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_1 = mpmd.transfer %b4_1 : (!m4) -> !m3
  %b3_1 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_1, %f3_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_2 = mpmd.transfer %b4_2 : (!m4) -> !m3
  %b3_2 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_2, %f3_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_3 = mpmd.transfer %b4_3 : (!m4) -> !m3
  %b3_3 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_3, %f3_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_4 = mpmd.transfer %b4_4 : (!m4) -> !m3
  %b3_4 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_4, %f3_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_5 = mpmd.transfer %b4_5 : (!m4) -> !m3
  %b3_5 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_5, %f3_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_6 = mpmd.transfer %b4_6 : (!m4) -> !m3
  %b3_6 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_6, %f3_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb3_7 = mpmd.transfer %b4_7 : (!m4) -> !m3
  %b3_7 = mpmd.fragment<mesh="m3", origin=["s3"(1)]> (%tb3_7, %f3_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m3, !m3) -> !m3
  %tb2_0 = mpmd.transfer %b3_0 : (!m3) -> !m2
  %b2_0 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_0, %f2_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_1 = mpmd.transfer %b3_1 : (!m3) -> !m2
  %b2_1 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_1, %f2_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_2 = mpmd.transfer %b3_2 : (!m3) -> !m2
  %b2_2 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_2, %f2_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_3 = mpmd.transfer %b3_3 : (!m3) -> !m2
  %b2_3 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_3, %f2_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_4 = mpmd.transfer %b3_4 : (!m3) -> !m2
  %b2_4 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_4, %f2_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_5 = mpmd.transfer %b3_5 : (!m3) -> !m2
  %b2_5 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_5, %f2_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_6 = mpmd.transfer %b3_6 : (!m3) -> !m2
  %b2_6 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_6, %f2_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb2_7 = mpmd.transfer %b3_7 : (!m3) -> !m2
  %b2_7 = mpmd.fragment<mesh="m2", origin=["s2"(1)]> (%tb2_7, %f2_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m2, !m2) -> !m2
  %tb1_0 = mpmd.transfer %b2_0 : (!m2) -> !m1
  %b1_0 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_0, %f1_0) {call_counter = 0 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_1 = mpmd.transfer %b2_1 : (!m2) -> !m1
  %b1_1 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_1, %f1_1) {call_counter = 1 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_2 = mpmd.transfer %b2_2 : (!m2) -> !m1
  %b1_2 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_2, %f1_2) {call_counter = 2 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_3 = mpmd.transfer %b2_3 : (!m2) -> !m1
  %b1_3 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_3, %f1_3) {call_counter = 3 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_4 = mpmd.transfer %b2_4 : (!m2) -> !m1
  %b1_4 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_4, %f1_4) {call_counter = 4 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_5 = mpmd.transfer %b2_5 : (!m2) -> !m1
  %b1_5 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_5, %f1_5) {call_counter = 5 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_6 = mpmd.transfer %b2_6 : (!m2) -> !m1
  %b1_6 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_6, %f1_6) {call_counter = 6 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  %tb1_7 = mpmd.transfer %b2_7 : (!m2) -> !m1
  %b1_7 = mpmd.fragment<mesh="m1", origin=["s1"(1)]> (%tb1_7, %f1_7) {call_counter = 7 : ui32} (%a0: tensor<4xf32>, %a1: tensor<4xf32>) {
    mpmd.return %a0 : tensor<4xf32>
  } : (!m1, !m1) -> !m1
  func.return %b1_7 : !m1
}
