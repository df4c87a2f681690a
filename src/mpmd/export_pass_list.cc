// The mpmd export passes, registered with their mpmd_opt names and options
// (export_passes.h).
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerExportPasses() {
  registerPass(optionlessPass(
      "mpmd-mark-offloaded-input-output",
      "Marks fragment operands and results in host memory and checks the "
      "entry point's memory kinds against them",
      markOffloadedInputOutput));
  registerPass(optionlessPass(
      "mpmd-mark-aliasing-and-donation",
      "Marks fragment operands used for the last time as aliased with a "
      "result or donated",
      markAliasingAndDonation));
  registerPass(optionlessPass(
      "mpmd-mark-fragment-reserved-memory",
      "Marks each fragment with the device memory other live values hold "
      "while it runs (reserved_hbm_bytes)",
      markFragmentReservedMemory));
  registerPass(optionlessPass(
      "mpmd-delay-inferred-fragments",
      "Moves inferred fragments to right before their first user",
      delayInferredFragments));
  registerPass(optionlessPass(
      "mpmd-sink-create-token-into-fragments",
      "Replaces token operands of fragments by tokens created inside and "
      "drops token results",
      sinkCreateTokenIntoFragments));
  registerPass(optionlessPass(
      "mpmd-delay-transfers-from-cpu",
      "Moves transfers from CPU meshes or host memory to right before their "
      "first user",
      delayTransfersFromCpu));
  registerPass(optionlessPass(
      "mpmd-mark-input-output-with-layouts",
      "Carries the layouts of entry arguments and results to the fragments "
      "using and producing them",
      markInputOutputWithLayouts));
  registerPass({"mpmd-validate-no-backward-deps",
                "Reports dependencies from later to earlier meshes in a "
                "forward-only program",
                {{"fail-on-backward-deps",
                  "an error instead of a warning (default false)",
                  PassOptionKind::kBool}},
                validateNoBackwardDeps});
  registerPass({"mpmd-validate-no-reshards",
                "Reports fragment calls whose callee only returns arguments",
                {{"fail-on-reshard-only-fragments",
                  "an error instead of a warning (default false)",
                  PassOptionKind::kBool}},
                validateNoReshards});
  registerPass({"mpmd-validate-no-param-transfers",
                "Reports cross-mesh transfers of parameters",
                {{"fail-on-param-transfers",
                  "an error instead of a warning (default false)",
                  PassOptionKind::kBool},
                 {"param-pattern",
                  "text the parameter's name location contains (default "
                  "params['transformer)"}},
                validateNoParamTransfers});
  registerPass({"mpmd-validate-no-inferred-fragments",
                "Reports fragments without user origins",
                {{"fail-on-inferred-fragments",
                  "an error instead of a warning (default true)",
                  PassOptionKind::kBool}},
                validateNoInferredFragments});
  registerPass({"mpmd-lower-to-fragment-calls",
                "Turns each group of equal fragments into one function and "
                "the fragments into fragment calls of it",
                {{"verbose-logging",
                  "list each mesh's fragments on stderr (default false)",
                  PassOptionKind::kBool}},
                lowerToFragmentCalls});
  registerPass(
      {"mpmd-export-pipeline",
       "Exports an mpmd program: memory kinds, aliasing, reserved "
       "memory, checks, and fragments lowered to fragment calls",
       {{"fail-on-reshard-only-fragments",
         "errors for reshard-only fragments (default false)",
         PassOptionKind::kBool},
        {"fail-on-backward-deps",
         "errors for backward dependencies (default false)",
         PassOptionKind::kBool},
        {"fail-on-inferred-fragments",
         "errors for inferred fragments (default true)", PassOptionKind::kBool},
        {"fail-on-param-transfers",
         "errors for parameter transfers (default false)",
         PassOptionKind::kBool},
        {"param-transfer-pattern", "text a parameter's name location contains"},
        {"verbose-logging",
         "list each mesh's fragments on stderr (default false)",
         PassOptionKind::kBool}},
       exportPipeline});
}

}  // namespace shardkit::mpmd::mpmd_internal
