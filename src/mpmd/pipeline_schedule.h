// Internal to the mpmd layer: the built-in pipeline schedules, each a
// must-happen-before relation between two scheduling units on one mesh
// (optimize_utils.h). -mpmd-pipeline-scheduler orders fragments by it.
#ifndef SHARDKIT_SRC_MPMD_PIPELINE_SCHEDULE_H_
#define SHARDKIT_SRC_MPMD_PIPELINE_SCHEDULE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// What the schedules read of a scheduling unit, gathered once.
struct ScheduleUnit {
  Op fragment;
  int64_t counter = 0;    // the microbatch
  int64_t transpose = 0;  // 0 forward, 1 backward
  std::optional<int64_t> stage;
  std::string mesh_name;
  int mesh = 0;    // index of the mesh in the topology
  int meshes = 0;  // meshes in the topology
};

// The unit of `fragment`, which must be a scheduling unit.
ScheduleUnit scheduleUnitOf(Op fragment);

// True if the first unit must run before the second (both on one mesh).
using MustHappenBefore =
    std::function<bool(const ScheduleUnit&, const ScheduleUnit&)>;

// The relation of a built-in schedule, by name (case-insensitive): none,
// 1F1B, GPipe, GPipeBut1F1BForLastMesh, Circular,
// CircularWithReversedBackward, ParallelPipelinesWithWrapAround. nullopt for
// any other name.
std::optional<MustHappenBefore> builtinSchedule(std::string_view name);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_PIPELINE_SCHEDULE_H_
