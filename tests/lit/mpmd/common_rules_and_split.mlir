// Rule-based merging, the stage check, and the transfer-independent split.
// RUN: shardkit-opt %s -split-input-file -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["a"],stage=0),FragmentInfo(origins=["b"],stage=0)],target=FragmentInfo(origins=["ab"],stage=0,call_counter=1))' | FileCheck %s --check-prefix=RULE
// RUN: not shardkit-opt %s -split-input-file -mpmd-verify-stage-merging 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: shardkit-opt %s -split-input-file -mpmd-split-and-prioritize-transfer-independent-computations -canonicalize -mpmd-fragment-dedup -mpmd-fragment-dce | FileCheck %s --check-prefix=SPLIT
// RUN: not shardkit-opt %s -mpmd-rule-based-merge='rules=FragmentMergeRule(sources=[FragmentInfo(origins=["a"])]' 2>&1 | FileCheck %s --check-prefix=BADRULE

// BADRULE: error: invalid fragment rule: expected ',' or '],target='

!t = !mpmd.mesh_tensor<"m1", tensor<4xf32>>

// The two sources merge (with the fragment between them moved after), and
// the target's origins and call counter replace theirs. The two fragments
// of stage 0 with the same transpose count are reported.
// RULE-LABEL: func.func @rule
// RULE-NEXT:    %[[AB:.*]] = mpmd.fragment<mesh="m1", origin=["ab"], stage=0> (%arg0) {call_counter = 1 : ui32}
// RULE-NEXT:      stablehlo.negate
// RULE-NEXT:      stablehlo.abs
// RULE-NEXT:      mpmd.return
// RULE-NEXT:    }
// RULE-NEXT:    mpmd.fragment<mesh="m1", origin=["c"]> (%arg0)
// STAGE: common_rules_and_split.mlir:[[# @LINE + 10]]:3: error: A valid program cannot have more than one fragment with the same mesh, stage, transpose count, call counter, split type and remat flag, but found several with [mesh=m1, stage_id=0, transpose_count=0, call_count=-1, split_type=none, is_remat=0]
func.func @rule(%arg0: !t) -> (!t, !t)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=["a"], stage=0> (%arg0) (%a: tensor<4xf32>) {
    %n = stablehlo.negate %a : tensor<4xf32>
    mpmd.return %n : tensor<4xf32>
  } : (!t) -> !t
  %1 = mpmd.fragment<mesh="m1", origin=["c"]> (%arg0) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!t) -> !t
  %2 = mpmd.fragment<mesh="m1", origin=["b"], stage=0> (%0) (%a: tensor<4xf32>) {
    %b = stablehlo.abs %a : tensor<4xf32>
    mpmd.return %b : tensor<4xf32>
  } : (!t) -> !t
  return %1, %2 : !t, !t
}

// -----

!t1 = !mpmd.mesh_tensor<"m1", tensor<4xf32>>
!t2 = !mpmd.mesh_tensor<"m2", tensor<4xf32>>

// The negate does not need the transferred value: it moves into a first
// fragment, and the multiply that does waits in a second one.
// SPLIT-LABEL: func.func @split
// SPLIT:         %[[T:.*]] = mpmd.transfer %arg1
// SPLIT-NEXT:    %[[K:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0) {split_keep_transferred}
// SPLIT-NEXT:      stablehlo.negate
// SPLIT-NEXT:      mpmd.return
// SPLIT-NEXT:    }
// SPLIT-NEXT:    %[[D:.*]] = mpmd.fragment<mesh="m1", origin=["f"]> (%[[T]], %[[K]]) {split_drop_transferred}
// SPLIT-NEXT:      stablehlo.multiply
// SPLIT-NEXT:      mpmd.return
// SPLIT-NEXT:    }
// SPLIT-NEXT:    return %[[K]], %[[D]]
func.func @split(%arg0: !t1, %arg1: !t2) -> (!t1, !t1)
    attributes {topology = #mpmd.topology<<"m1": <["x"=2]>>, <"m2": <["x"=2]>>>} {
  %t = mpmd.transfer %arg1 : (!t2) -> !t1
  %0:2 = mpmd.fragment<mesh="m1", origin=["f"]> (%arg0, %t) (%a: tensor<4xf32>, %b: tensor<4xf32>) {
    %n = stablehlo.negate %a : tensor<4xf32>
    %m = stablehlo.multiply %n, %b : tensor<4xf32>
    mpmd.return %n, %m : tensor<4xf32>, tensor<4xf32>
  } : (!t1, !t1) -> (!t1, !t1)
  return %0#0, %0#1 : !t1, !t1
}
