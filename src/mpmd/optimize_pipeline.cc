// -mpmd-optimize-pipeline{pipeline-schedule merge-after-scheduling}: the
// reference's optimize pipeline after import: the pipeline scheduler with
// the chosen schedule (1F1B by default; none, Circular), then the check that
// fragments of one stage were merged, and with merge-after-scheduling the
// merging of inferred fragments. Those two steps belong to the common mpmd
// passes and run when they are registered (`mpmd-verify-stage-merging`,
// `mpmd-merge-inferred-fragments`).
#include <string>

#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {

absl::Status optimizePipeline(Module& module, const PassOptions& options) {
  std::string schedule = options.get("pipeline-schedule", "1F1B");
  if (schedule != "none" && schedule != "1F1B" && schedule != "Circular") {
    return absl::InvalidArgumentError(
        "pipeline-schedule must be none, 1F1B or Circular, got '" + schedule +
        "'");
  }
  SK_ASSIGN_OR_RETURN(bool merge_after,
                      options.getBool("merge-after-scheduling", false));
  SK_RETURN_IF_ERROR(schedulePipeline(module, schedule));
  SK_RETURN_IF_ERROR(
      mpmd_internal::runPassIfRegistered(module, "mpmd-verify-stage-merging"));
  if (merge_after) {
    SK_RETURN_IF_ERROR(mpmd_internal::runPassIfRegistered(
        module, "mpmd-merge-inferred-fragments"));
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
