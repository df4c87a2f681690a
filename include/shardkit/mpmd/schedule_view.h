// A picture of a scheduled mpmd program (docs/mpmd.md, "Looking at a
// schedule"): each mesh runs its fragments in program order, one time unit
// per fragment, a fragment starting once its mesh is free and its operands
// (through transfers, which take no time) are computed. The result is a
// timeline per mesh, the transfers between fragments, and the pipeline
// bubble: the fraction of mesh time spent idle before the last fragment
// ends. `shardkit-opt --dump-schedule=json|svg` prints it.
#ifndef SHARDKIT_MPMD_SCHEDULE_VIEW_H_
#define SHARDKIT_MPMD_SCHEDULE_VIEW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

struct ScheduledFragment {
  int64_t id = 0;  // position among the fragments, in program order
  std::string mesh;
  std::string origins;  // `[a, b(1)]`
  // "forward" or "backward" when all origins agree, "other" otherwise.
  std::string phase;
  std::optional<int64_t> microbatch;  // the call counter
  std::optional<int64_t> stage;
  double start = 0;
  double end = 0;
};

struct ScheduledTransfer {
  int64_t from = 0;  // fragment ids
  int64_t to = 0;
};

struct ScheduleView {
  std::string function;
  std::vector<std::string> meshes;  // the topology's, in order
  std::vector<ScheduledFragment> fragments;
  std::vector<ScheduledTransfer> transfers;
  double makespan = 0;
  // 1 - busy time / (meshes * makespan); 0 for an empty program.
  double bubble_fraction = 0;
};

// The schedule of the entry point `@main` (else the first mpmd entry point).
// An error when the module has none.
absl::StatusOr<ScheduleView> computeScheduleView(Module& module);

// The view as JSON (one object: function, meshes, makespan, bubble_fraction,
// fragments, transfers) and as a standalone SVG picture (a row per mesh, a
// box per fragment, forward and backward in two colours, arrows for
// transfers, the bubble in the caption).
std::string scheduleJson(const ScheduleView& view);
std::string scheduleSvg(const ScheduleView& view);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_SCHEDULE_VIEW_H_
