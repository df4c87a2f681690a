// The built-in pipeline schedules (pipeline_schedule.h). In the pictures,
// Fi/Bi are the forward/backward fragments of microbatch (call counter) i;
// one row per mesh.
#include "src/mpmd/pipeline_schedule.h"

#include <array>
#include <cctype>
#include <cstdint>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "src/mpmd/optimize_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// 1F1B (PipeDream): after a warm-up of `meshes - mesh` forwards, forwards
// and backwards alternate.
//   m0: F0 F1 F2 F3          B0 F4 B1 F5 B2    B3
//   m1:    F0 F1 F2       B0 F3 B1 F4 B2 F5 B3
//   m2:       F0 F1    B0 F2 B1 F3 B2 F4 B3 F5
//   m3:          F0 B0 F1 B1 F2 B2 F3 B3 F4 B4
bool oneFOneB(const ScheduleUnit& x, const ScheduleUnit& y) {
  if (x.transpose == 1 && y.transpose == 0) {
    return x.counter == y.counter - x.meshes + x.mesh;
  }
  if (x.transpose == 0 && y.transpose == 1) {
    return x.counter == y.counter + x.meshes - (x.mesh + 1);
  }
  return x.transpose == y.transpose && x.counter < y.counter;
}

// GPipe: every forward, then every backward, each in microbatch order.
bool gpipe(const ScheduleUnit& x, const ScheduleUnit& y) {
  if (x.transpose == y.transpose) return x.counter < y.counter;
  return x.transpose < y.transpose;
}

// GPipe, except 1F1B on the last mesh (which then needs no remat).
bool gpipeBut1F1BForLastMesh(const ScheduleUnit& x, const ScheduleUnit& y) {
  return x.mesh == x.meshes - 1 ? oneFOneB(x, y) : gpipe(x, y);
}

// (phase, stage, counter) tuples compared in order.
bool lexLess(const std::array<int64_t, 3>& a, const std::array<int64_t, 3>& b,
             bool ascending) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    return ascending ? a[i] < b[i] : a[i] > b[i];
  }
  return false;
}

// Circular (interleaved) pipelining over logical stages: per mesh, `meshes`
// microbatches of its first stage, then as many of its next stage, and so
// on (a phase); all forwards before all backwards. Fragments without a stage
// are not ordered.
bool circular(const ScheduleUnit& x, const ScheduleUnit& y,
              bool reversed_backward) {
  if (!x.stage || !y.stage) return false;
  if (x.transpose != y.transpose) return x.transpose < y.transpose;
  int64_t meshes = x.meshes > 0 ? x.meshes : 1;
  std::array<int64_t, 3> ka = {x.counter / meshes, *x.stage, x.counter};
  std::array<int64_t, 3> kb = {y.counter / meshes, *y.stage, y.counter};
  if (x.transpose == 0) return lexLess(ka, kb, true);
  if (reversed_backward) return lexLess(ka, kb, false);
  // Backward in microbatch order, stages descending.
  std::swap(ka[1], kb[1]);
  return lexLess(ka, kb, true);
}

// The number in a mesh name (`mesh3` is 3), or -1.
int64_t meshNumber(std::string_view name) {
  size_t i = 0;
  while (i < name.size() && !std::isdigit(name[i])) ++i;
  if (i == name.size()) return -1;
  int64_t n = 0;
  for (; i < name.size() && std::isdigit(name[i]); ++i)
    n = n * 10 + name[i] - '0';
  return n;
}

// Parallel forward pipelines that enter at different meshes: microbatch i
// starts on mesh i (by the number in its name), which then runs the others
// in the order that wraps around from it.
bool parallelWithWrapAround(const ScheduleUnit& a, const ScheduleUnit& b) {
  if (a.transpose != 0 || b.transpose != 0) return false;
  int64_t x = a.counter, y = b.counter;
  int64_t pivot = meshNumber(a.mesh_name);
  if (x == y || pivot < 0) return false;
  if (x == pivot || y == pivot) return x == pivot;
  bool same_side = (x > pivot) == (y > pivot);
  return same_side ? x > y : x < y;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(c));
  return out;
}

}  // namespace

ScheduleUnit scheduleUnitOf(Op fragment) {
  ScheduleUnit unit;
  unit.fragment = fragment;
  unit.counter = callCounterOf(fragment).value_or(0);
  unit.transpose = singleTransposeCount(fragment).value_or(0);
  unit.stage = FragmentOp(fragment).stageId();
  unit.mesh_name = std::string(FragmentOp(fragment).meshName());
  unit.mesh = meshIndex(fragment);
  unit.meshes = numMeshes(fragment);
  return unit;
}

std::optional<MustHappenBefore> builtinSchedule(std::string_view name) {
  std::string key = lower(name);
  if (key == "none")
    return MustHappenBefore(
        [](const ScheduleUnit&, const ScheduleUnit&) { return false; });
  if (key == "1f1b") return MustHappenBefore(oneFOneB);
  if (key == "gpipe") return MustHappenBefore(gpipe);
  if (key == "gpipebut1f1bforlastmesh") {
    return MustHappenBefore(gpipeBut1F1BForLastMesh);
  }
  if (key == "circular") {
    return MustHappenBefore([](const ScheduleUnit& a, const ScheduleUnit& b) {
      return circular(a, b, false);
    });
  }
  if (key == "circularwithreversedbackward") {
    return MustHappenBefore([](const ScheduleUnit& a, const ScheduleUnit& b) {
      return circular(a, b, true);
    });
  }
  if (key == "parallelpipelineswithwraparound") {
    return MustHappenBefore(parallelWithWrapAround);
  }
  return std::nullopt;
}

}  // namespace shardkit::mpmd::mpmd_internal
