// Internal to the mpmd layer: the reference's common mpmd passes
// (docs/mpmd.md, "Common passes"), registered by registerCommonPasses.
#ifndef SHARDKIT_SRC_MPMD_COMMON_PASSES_H_
#define SHARDKIT_SRC_MPMD_COMMON_PASSES_H_

#include "absl/status/status.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/pass.h"

namespace shardkit::mpmd::mpmd_internal {

// Registers the passes below with their mpmd_opt names (common_pass_list.cc).
void registerCommonPasses();

// -mpmd-merge-inferred-fragments{merge-any-consumer merge-sideways}: inferred
// fragments (no origin) merge with the fragments that use them (or, sideways,
// with the next fragment on their mesh).
absl::Status mergeInferredFragments(Module& module, const PassOptions& options);

// -mpmd-merge-user-fragments-into-scheduling-units: user fragments merge with
// the user fragments that use them when transpose counts, call counters and
// stages agree.
absl::Status mergeUserFragmentsIntoSchedulingUnits(Module& module);

// -mpmd-verify-stage-merging: no two fragments with a stage share mesh, stage,
// transpose count, call counter, split type and remat flag.
absl::Status verifyStageMerging(Module& module);

// -mpmd-absorb-inferred-fragments{absorb-on-entry-point-function}: root
// fragments absorb the inferred fragments that only they feed or are fed by.
absl::Status absorbInferredFragments(Module& module,
                                     const PassOptions& options);

// -mpmd-fragment-dce: unused fragment results, body ops and operands, empty
// fragments and unused transfers are erased.
absl::Status fragmentDce(Module& module);

// -mpmd-fragment-dedup: duplicate fragment operands and results are replaced
// by their first occurrence.
absl::Status fragmentDedup(Module& module);

// -mpmd-copy-constants: constants fragments return are cloned into the
// fragments that consume them.
absl::Status copyConstants(Module& module);

// -mpmd-call-inline: mpmd.call ops are replaced by their callee's body, whose
// fragments get the call's attributes.
absl::Status callInline(Module& module);

// -mpmd-from-unroll-to-call-counter: an mpmd.call's unroll_counter becomes
// its call_counter.
absl::Status fromUnrollToCallCounter(Module& module);

// -mpmd-sink-negligible-ops-into-call-op: operand-less ops every call passes
// as one argument are cloned into the callee, and the argument dropped.
absl::Status sinkNegligibleOpsIntoCallOp(Module& module);

// -mpmd-remove-transfer-cycles: transfers that come back to a type already
// in their chain (on device) are replaced by the earlier value.
absl::Status removeTransferCycles(Module& module);

// -mpmd-uniquify-function-inputs-outputs{use-transfer-instead-of-fragment}:
// no mpmd function returns a value twice or returns an argument.
absl::Status uniquifyFunctionInputsOutputs(Module& module,
                                           const PassOptions& options);

// -mpmd-split-and-prioritize-transfer-independent-computations: fragments fed
// partly by transfers are split into what does not need the transferred
// values and the rest.
absl::Status splitAndPrioritizeTransferIndependentComputations(Module& module);

// -mpmd-merge-transfers: small values one fragment sends another through
// several transfers are concatenated into one transfer.
absl::Status mergeTransfers(Module& module);

// -mpmd-rule-based-merge{rules remove-control-dependencies}: the fragments
// each rule names are merged into one with the rule's target info.
absl::Status ruleBasedMerge(Module& module, const PassOptions& options);

// -mpmd-unroll-for-loops: mpmd.for loops are fully unrolled, every copied op
// getting an unroll_counter.
absl::Status unrollForLoops(Module& module);

// -mpmd-split-bwd-fragments: backward fragments are split into what their
// transferred results need and the rest.
absl::Status splitBwdFragments(Module& module);

// The common passes of -mpmd-import-pipeline (import_common_passes.cc):
// those it runs before mapping names to meshes, and those after mesh
// inference (with `merge_after_scheduling`, no merging of inferred
// fragments).
absl::Status importCommonPrefix(Module& module);
absl::Status importCommonSuffix(Module& module, bool merge_after_scheduling);

// -mpmd-merge-forward-with-backward: a forward fragment merges with the
// backward fragment that uses it when that is the next fragment on its mesh.
absl::Status mergeForwardWithBackward(Module& module);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_COMMON_PASSES_H_
