// The common mpmd passes, registered with their mpmd_opt names and options.
#include "shardkit/passes/pass.h"
#include "src/mpmd/common_passes.h"

namespace shardkit::mpmd::mpmd_internal {

void registerCommonPasses() {
  registerPass({"mpmd-merge-inferred-fragments",
                "Merges inferred fragments (no origin) with the fragments that "
                "use them, or sideways with the next fragment on their mesh",
                {{"merge-any-consumer",
                  "merge with any consumer the rules allow, not only the "
                  "first (default false)",
                  PassOptionKind::kBool},
                 {"merge-sideways",
                  "merge with the next fragment on the same mesh even if it "
                  "does not use the producer (default false)",
                  PassOptionKind::kBool}},
                mergeInferredFragments});
  registerPass(optionlessPass(
      "mpmd-merge-user-fragments-into-scheduling-units",
      "Merges user fragments with the user fragments that use them when "
      "their transpose counts, call counters and stages agree",
      mergeUserFragmentsIntoSchedulingUnits));
  registerPass(optionlessPass(
      "mpmd-verify-stage-merging",
      "Checks no two fragments share mesh, stage, transpose count, call "
      "counter, split type and remat flag",
      verifyStageMerging));
  registerPass({"mpmd-absorb-inferred-fragments",
                "Root fragments absorb the inferred fragments whose closest "
                "consumer or producer they are, moving transfers out of the "
                "way",
                {{"absorb-on-entry-point-function",
                  "also absorb in entry-point functions (default false)",
                  PassOptionKind::kBool}},
                absorbInferredFragments});
  registerPass(optionlessPass(
      "mpmd-fragment-dce",
      "Erases unused fragment results, dead ops in fragment bodies, unused "
      "fragment operands, empty fragments and unused transfers",
      fragmentDce));
  registerPass(optionlessPass(
      "mpmd-fragment-dedup",
      "Replaces duplicate fragment operands and results by their first "
      "occurrence",
      fragmentDedup));
  registerPass(optionlessPass(
      "mpmd-copy-constants",
      "Clones constants that fragments return into the fragments consuming "
      "them, looking through transfers",
      copyConstants));
  registerPass(optionlessPass(
      "mpmd-call-inline",
      "Inlines every mpmd.call, giving the inlined fragments the call's "
      "attributes (e.g. call_counter)",
      callInline));
  registerPass(optionlessPass(
      "mpmd-from-unroll-to-call-counter",
      "Renames the unroll_counter of mpmd.call ops to call_counter",
      fromUnrollToCallCounter));
  registerPass(optionlessPass(
      "mpmd-sink-negligible-ops-into-call-op",
      "Clones operand-less ops that every call passes as one argument into "
      "the callee and drops the argument",
      sinkNegligibleOpsIntoCallOp));
  registerPass(optionlessPass(
      "mpmd-remove-transfer-cycles",
      "Replaces transfers that return to a type earlier in their chain of "
      "device transfers by that earlier value",
      removeTransferCycles));
  registerPass({"mpmd-uniquify-function-inputs-outputs",
                "Makes every result of an mpmd function a distinct value that "
                "is not an argument, through an inferred fragment per mesh",
                {{"use-transfer-instead-of-fragment",
                  "use a transfer per duplicate instead (default false)",
                  PassOptionKind::kBool}},
                uniquifyFunctionInputsOutputs});
  registerPass(optionlessPass(
      "mpmd-split-and-prioritize-transfer-independent-computations",
      "Splits fragments fed partly by transfers into the computation that "
      "does not need the transferred values and the rest",
      splitAndPrioritizeTransferIndependentComputations));
  registerPass(optionlessPass(
      "mpmd-merge-transfers",
      "Concatenates small replicated values one fragment transfers to "
      "another into one transfer, sliced apart in the consumer",
      mergeTransfers));
  registerPass({"mpmd-rule-based-merge",
                "Merges the fragments each rule names into one fragment with "
                "the rule's target info",
                {{"rules",
                  "comma-separated FragmentMergeRule(sources=[FragmentInfo("
                  "...),...],target=FragmentInfo(...))"},
                 {"remove-control-dependencies",
                  "accepted for compatibility; shardkit adds no control "
                  "dependencies (default false)",
                  PassOptionKind::kBool}},
                ruleBasedMerge});
  registerPass(optionlessPass(
      "mpmd-unroll-for-loops",
      "Fully unrolls mpmd.for loops (unroll factor = iterations), giving "
      "each copied op an unroll_counter",
      unrollForLoops));
  registerPass(optionlessPass(
      "mpmd-split-bwd-fragments",
      "Splits backward fragments into the computation of their transferred "
      "results and that of the results that stay on the mesh",
      splitBwdFragments));
  registerPass(optionlessPass(
      "mpmd-merge-forward-with-backward",
      "Merges a forward fragment with the backward fragment using it when "
      "that is the next fragment on its mesh",
      mergeForwardWithBackward));
}

}  // namespace shardkit::mpmd::mpmd_internal
