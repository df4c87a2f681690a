// The common passes the import pipeline runs around its own (in the
// reference's order): loops unrolled and negligible ops sunk into callees
// before mesh assignment; after mesh inference, inferred fragments absorbed
// and merged, clean-ups, calls inlined, a last merge, and user fragments
// grouped into scheduling units.
#include "shardkit/passes/canonicalize.h"
#include "shardkit/passes/symbol_dce.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/common_passes.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

PassOptions withOption(std::string key, std::string value) {
  PassOptions options;
  options.set(std::move(key), std::move(value));
  return options;
}

}  // namespace

absl::Status importCommonPrefix(Module& module) {
  SK_RETURN_IF_ERROR(unrollForLoops(module));
  SK_RETURN_IF_ERROR(canonicalize(module));
  SK_RETURN_IF_ERROR(fromUnrollToCallCounter(module));
  return sinkNegligibleOpsIntoCallOp(module);
}

absl::Status importCommonSuffix(Module& module, bool merge_after_scheduling) {
  if (!merge_after_scheduling) {
    SK_RETURN_IF_ERROR(absorbInferredFragments(module, {}));
    SK_RETURN_IF_ERROR(mergeInferredFragments(
        module, withOption("merge-any-consumer", "true")));
    SK_RETURN_IF_ERROR(
        mergeInferredFragments(module, withOption("merge-sideways", "true")));
  }
  SK_RETURN_IF_ERROR(fragmentDedup(module));
  SK_RETURN_IF_ERROR(fragmentDce(module));
  SK_RETURN_IF_ERROR(removeTransferCycles(module));
  SK_RETURN_IF_ERROR(callInline(module));
  SK_RETURN_IF_ERROR(symbolDce(module));
  if (!merge_after_scheduling)
    SK_RETURN_IF_ERROR(mergeInferredFragments(module, {}));
  return mergeUserFragmentsIntoSchedulingUnits(module);
}

}  // namespace shardkit::mpmd::mpmd_internal
