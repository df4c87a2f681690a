// The mpmd optimize passes, registered with their mpmd_opt names and options
// (optimize_passes.h).
#include "shardkit/mpmd/optimize_passes.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerOptimizePasses() {
  registerPass({"mpmd-pipeline-scheduler",
                "Reorders the scheduling units of each mesh by a pipeline "
                "schedule",
                {{"must-happen-before",
                  "the schedule: 1F1B (default), GPipe, "
                  "GPipeBut1F1BForLastMesh, Circular, "
                  "CircularWithReversedBackward, "
                  "ParallelPipelinesWithWrapAround or none"},
                 {"remove-control-dependencies",
                  "accepted for compatibility; no dependency is left behind",
                  PassOptionKind::kBool}},
                pipelineScheduler});
  registerPass({"mpmd-rule-based-schedule",
                "Reorders the fragments that user rules list, where data "
                "flow allows",
                {{"rules",
                  "FragmentScheduleRule(ordered_fragments=[FragmentInfo(...)"
                  "->...]), ..."},
                 {"remove-control-dependencies",
                  "accepted for compatibility; no dependency is left behind",
                  PassOptionKind::kBool}},
                ruleBasedSchedule});
  registerPass({"mpmd-remat-fragment",
                "Copies forward fragments right before the backward fragments "
                "using them",
                {{"merge-remat-fragments",
                  "merge each copy into its backward fragment (default false)",
                  PassOptionKind::kBool}},
                rematFragments});
  registerPass(optionlessPass(
      "mpmd-move-transfers-to-producer",
      "Moves each transfer right after the op producing its operand",
      moveTransfersToProducer));
  registerPass(optionlessPass(
      "mpmd-scheduling-units-verifier",
      "Warns about meshes without one forward and one backward scheduling "
      "unit per microbatch",
      verifySchedulingUnits));
  registerPass({"mpmd-optimize-pipeline",
                "Optimizes an imported mpmd program: pipeline scheduling, "
                "then the stage-merging check and merging (when registered)",
                {{"pipeline-schedule",
                  "none, 1F1B (default) or Circular",
                  PassOptionKind::kChoice,
                  {"none", "1F1B", "Circular"}},
                 {"merge-after-scheduling",
                  "merge inferred fragments after scheduling (default false)",
                  PassOptionKind::kBool}},
                optimizePipeline});
}

}  // namespace shardkit::mpmd::mpmd_internal
