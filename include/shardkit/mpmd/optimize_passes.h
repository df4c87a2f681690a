// The mpmd optimize passes (docs/mpmd.md, "Optimize"): they reorder and
// rematerialize the fragments of an imported program for a pipeline
// schedule. Registered with mpmd_opt's names by registerMpmdDialect
// (dialect.h).
#ifndef SHARDKIT_MPMD_OPTIMIZE_PASSES_H_
#define SHARDKIT_MPMD_OPTIMIZE_PASSES_H_

#include <string_view>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/pass.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

// -mpmd-pipeline-scheduler{must-happen-before=SCHEDULE}: orders the
// scheduling units on each mesh by a built-in schedule (1F1B by default;
// GPipe, GPipeBut1F1BForLastMesh, Circular, CircularWithReversedBackward,
// ParallelPipelinesWithWrapAround, none; `builtin:` prefix allowed).
absl::Status pipelineScheduler(Module& module, const PassOptions& options);
// The same with the schedule given by name; InvalidArgument for an unknown
// one.
absl::Status schedulePipeline(Module& module, std::string_view schedule);

// -mpmd-optimize-pipeline{pipeline-schedule=none|1F1B|Circular
// merge-after-scheduling}: the scheduler, then (when the common passes are
// registered) the stage-merging check and, with the option, the merging of
// inferred fragments.
absl::Status optimizePipeline(Module& module, const PassOptions& options);

// -mpmd-rule-based-schedule{rules=FragmentScheduleRule(ordered_fragments=
// [FragmentInfo(origins=[...],mesh_name="m",call_counter=N)->...]),...}:
// orders the fragments each rule lists, where data flow allows.
absl::Status ruleBasedSchedule(Module& module, const PassOptions& options);

// -mpmd-remat-fragment{merge-remat-fragments}: copies forward fragments
// right before the backward fragments that use them (merged into them with
// the option).
absl::Status rematFragments(Module& module, const PassOptions& options);

// -mpmd-move-transfers-to-producer: transfers move right after the op
// producing their operand.
absl::Status moveTransfersToProducer(Module& module);

// -mpmd-scheduling-units-verifier: warns about meshes without one forward
// and one backward scheduling unit per microbatch.
absl::Status verifySchedulingUnits(Module& module);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_OPTIMIZE_PASSES_H_
