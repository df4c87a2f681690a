// -mpmd-export-pipeline{fail-on-reshard-only-fragments fail-on-backward-deps
// fail-on-inferred-fragments fail-on-param-transfers param-transfer-pattern}:
// the export passes in the reference's order. The clean-ups it runs first
// (fragment dedup, fragment DCE, uniquify-and-merge-returns) belong to the
// common mpmd passes and run when they are registered under those names.
// Then: memory kinds, layouts, delaying inferred fragments and transfers
// from CPU, tokens into fragments, aliasing
// and donation, reserved memory, the parameter-transfer and inferred-fragment
// checks, the lowering to fragment calls, and the reshard and
// backward-dependency checks. The first pass that fails stops the pipeline.
#include <string>

#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

absl::StatusOr<PassOptions> boolOption(const PassOptions& from,
                                       std::string_view key, bool fallback) {
  SK_ASSIGN_OR_RETURN(bool value, from.getBool(key, fallback));
  PassOptions options;
  options.set(std::string(key), value ? "true" : "false");
  return options;
}

}  // namespace

absl::Status exportPipeline(Module& module, const PassOptions& options) {
  for (std::string_view name : {"mpmd-fragment-dedup", "mpmd-fragment-dce",
                                "mpmd-uniquify-and-merge-returns"}) {
    SK_RETURN_IF_ERROR(mpmd_internal::runPassIfRegistered(module, name));
  }
  SK_RETURN_IF_ERROR(markOffloadedInputOutput(module));
  SK_RETURN_IF_ERROR(markInputOutputWithLayouts(module));
  SK_RETURN_IF_ERROR(delayInferredFragments(module));
  SK_RETURN_IF_ERROR(delayTransfersFromCpu(module));
  SK_RETURN_IF_ERROR(sinkCreateTokenIntoFragments(module));
  SK_RETURN_IF_ERROR(markAliasingAndDonation(module));
  SK_RETURN_IF_ERROR(markFragmentReservedMemory(module));

  SK_ASSIGN_OR_RETURN(PassOptions params,
                      boolOption(options, "fail-on-param-transfers", false));
  if (options.has("param-transfer-pattern")) {
    params.set("param-pattern", options.get("param-transfer-pattern"));
  }
  SK_RETURN_IF_ERROR(validateNoParamTransfers(module, params));
  SK_ASSIGN_OR_RETURN(PassOptions inferred,
                      boolOption(options, "fail-on-inferred-fragments", true));
  SK_RETURN_IF_ERROR(validateNoInferredFragments(module, inferred));
  SK_ASSIGN_OR_RETURN(PassOptions lowering,
                      boolOption(options, "verbose-logging", false));
  SK_RETURN_IF_ERROR(lowerToFragmentCalls(module, lowering));
  SK_ASSIGN_OR_RETURN(
      PassOptions reshards,
      boolOption(options, "fail-on-reshard-only-fragments", false));
  SK_RETURN_IF_ERROR(validateNoReshards(module, reshards));
  SK_ASSIGN_OR_RETURN(PassOptions backward,
                      boolOption(options, "fail-on-backward-deps", false));
  return validateNoBackwardDeps(module, backward);
}

}  // namespace shardkit::mpmd
