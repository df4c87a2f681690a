// -mpmd-pipeline-scheduler{must-happen-before=SCHEDULE}: orders the
// scheduling units (optimize_utils.h) of each mpmd function by a built-in
// pipeline schedule (pipeline_schedule.h). For every two units on one mesh
// that do not depend on each other through data, the schedule may say one
// must run first; that becomes an ordering edge, and the function body is
// sorted topologically with the data and ordering edges.
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "src/mpmd/optimize_utils.h"
#include "src/mpmd/pipeline_schedule.h"

namespace shardkit::mpmd {
namespace {

void scheduleFunction(FuncOp func,
                      const mpmd_internal::MustHappenBefore& before) {
  std::vector<Op> units;
  for (Op op : func.body()) {
    if (mpmd_internal::isSchedulingUnit(op)) units.push_back(op);
  }
  mpmd_internal::ControlDeps deps;
  for (Op a : units) {
    for (Op b : units) {
      if (a == b || FragmentOp(a).meshName() != FragmentOp(b).meshName()) {
        continue;
      }
      if (mpmd_internal::dependsOn(a, b) || mpmd_internal::dependsOn(b, a)) {
        continue;
      }
      if (before(a, b)) deps[b].push_back(a);
    }
  }
  mpmd_internal::sortTopologically(func.body(), deps);
}

}  // namespace

absl::Status schedulePipeline(Module& module, std::string_view schedule) {
  std::optional<mpmd_internal::MustHappenBefore> before =
      mpmd_internal::builtinSchedule(schedule);
  if (!before) {
    return absl::InvalidArgumentError("unknown pipeline schedule: " +
                                      std::string(schedule));
  }
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) scheduleFunction(func, *before);
  }
  return absl::OkStatus();
}

absl::Status pipelineScheduler(Module& module, const PassOptions& options) {
  std::string schedule = options.get("must-happen-before", "1F1B");
  if (schedule.starts_with("builtin:")) schedule = schedule.substr(8);
  return schedulePipeline(module, schedule);
}

}  // namespace shardkit::mpmd
