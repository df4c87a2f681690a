// -mpmd-pipeline-scheduler{must-happen-before=SCHEDULE}: orders the
// scheduling units (optimize_utils.h) of each mpmd function by a built-in
// pipeline schedule (pipeline_schedule.h). For every two units on one mesh
// that do not depend on each other through data, the schedule may say one
// must run first; that becomes an ordering edge, and the function body is
// sorted topologically with the data and ordering edges.
//
// Which units a unit depends on is computed once, in program order, as a
// bit set per op; the schedule is asked only about pairs on one mesh.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "src/mpmd/optimize_utils.h"
#include "src/mpmd/pipeline_schedule.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::ScheduleUnit;

// For each unit, the units it depends on through data (transitively).
class UnitDependencies {
 public:
  UnitDependencies(Block block, const std::vector<ScheduleUnit>& units)
      : words_((units.size() + 63) / 64) {
    absl::flat_hash_map<Op, size_t> index;
    for (size_t i = 0; i < units.size(); ++i) index[units[i].fragment] = i;
    absl::flat_hash_map<Op, std::vector<uint64_t>> below;
    for (Op op : block) {
      std::vector<uint64_t> bits(words_, 0);
      for (Op producer : mpmd_internal::producersInBlock(block, op)) {
        const std::vector<uint64_t>& from = below[producer];
        for (size_t w = 0; w < words_ && w < from.size(); ++w) {
          bits[w] |= from[w];
        }
        if (auto it = index.find(producer); it != index.end()) {
          bits[it->second / 64] |= uint64_t{1} << (it->second % 64);
        }
      }
      below[op] = std::move(bits);
    }
    for (const ScheduleUnit& unit : units) {
      of_.push_back(std::move(below[unit.fragment]));
    }
  }

  // True if unit `a` depends on unit `b`.
  bool dependsOn(size_t a, size_t b) const {
    return (of_[a][b / 64] >> (b % 64)) & 1;
  }

 private:
  size_t words_;
  std::vector<std::vector<uint64_t>> of_;
};

void scheduleFunction(FuncOp func,
                      const mpmd_internal::MustHappenBefore& before) {
  std::vector<ScheduleUnit> units;
  for (Op op : func.body()) {
    if (mpmd_internal::isSchedulingUnit(op)) {
      units.push_back(mpmd_internal::scheduleUnitOf(op));
    }
  }
  if (units.size() < 2) return;
  UnitDependencies dependencies(func.body(), units);
  std::map<std::string, std::vector<size_t>> by_mesh;
  for (size_t i = 0; i < units.size(); ++i) {
    by_mesh[units[i].mesh_name].push_back(i);
  }
  mpmd_internal::ControlDeps deps;
  for (const auto& [mesh, members] : by_mesh) {
    for (size_t a : members) {
      for (size_t b : members) {
        if (a == b || dependencies.dependsOn(a, b) ||
            dependencies.dependsOn(b, a)) {
          continue;
        }
        if (before(units[a], units[b])) {
          deps[units[b].fragment].push_back(units[a].fragment);
        }
      }
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
