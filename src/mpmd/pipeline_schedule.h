// Internal to the mpmd layer: the built-in pipeline schedules, each a
// must-happen-before relation between two scheduling units on one mesh
// (optimize_utils.h). -mpmd-pipeline-scheduler orders fragments by it.
#ifndef SHARDKIT_SRC_MPMD_PIPELINE_SCHEDULE_H_
#define SHARDKIT_SRC_MPMD_PIPELINE_SCHEDULE_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// True if the first fragment must run before the second (both scheduling
// units on the same mesh).
using MustHappenBefore = std::function<bool(Op, Op)>;

// The relation of a built-in schedule, by name (case-insensitive): none,
// 1F1B, GPipe, GPipeBut1F1BForLastMesh, Circular,
// CircularWithReversedBackward, ParallelPipelinesWithWrapAround. nullopt for
// any other name.
std::optional<MustHappenBefore> builtinSchedule(std::string_view name);

// The names builtinSchedule accepts, in its spelling.
std::vector<std::string> builtinScheduleNames();

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_PIPELINE_SCHEDULE_H_
