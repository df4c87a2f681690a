// Nested timed phases (wall time and the process's CPU time), what
// `shardkit-opt -mlir-timing` reports: the
// tool installs a PhaseRecorder, and the library marks its phases (the
// reader's, each step of a pipeline, the propagation driver's) with
// TimedPhase. Without a recorder on the thread a TimedPhase costs one
// thread-local read.
#ifndef SHARDKIT_INTERNAL_PHASE_TIMING_H_
#define SHARDKIT_INTERNAL_PHASE_TIMING_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/export.h"
#include "shardkit/support/non_copyable.h"
#include "shardkit/support/status_macros.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct PhaseTiming {
  std::string name;
  int depth = 0;  // 0 for a phase no other recorded phase encloses
  double ms = 0;
  // CPU time of the whole process (all threads) during the phase: on a
  // loaded machine wall time includes waiting for a core, CPU time doesn't.
  double cpu_ms = 0;
};

// Collects the phases timed on this thread while it lives, in the order they
// started (an enclosing phase before the phases inside it). Recorders nest:
// the innermost one collects.
class PhaseRecorder : public NonCopyable {
 public:
  PhaseRecorder();
  ~PhaseRecorder();

  const std::vector<PhaseTiming>& phases() const { return phases_; }
  void clear() { phases_.clear(); }
  static PhaseRecorder* active();

 private:
  friend class TimedPhase;
  PhaseRecorder* outer_;
  std::vector<PhaseTiming> phases_;
  int depth_ = 0;
};

// Times the scope it lives in as the phase `name`, if a recorder is active.
class TimedPhase : public NonCopyable {
 public:
  explicit TimedPhase(std::string_view name);
  ~TimedPhase();

 private:
  PhaseRecorder* recorder_;
  size_t index_ = 0;
  std::chrono::steady_clock::time_point start_;
  double cpu_start_ms_ = 0;
};

// Evaluates `expr` (an absl::Status) as the phase `name` and returns it from
// the enclosing function if it is not OK: a pipeline's steps.
#define SK_TIMED_RETURN_IF_ERROR(name, expr) \
  do {                                       \
    ::shardkit::TimedPhase sk_phase_(name);  \
    SK_RETURN_IF_ERROR(expr);                \
  } while (false)

// The phases as lines `  123.4 ms  name`, nested ones indented by depth,
// consecutive siblings of the same name merged (`name (x3)`), then the total
// of the top-level phases.
std::string formatPhases(const std::vector<PhaseTiming>& phases);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERNAL_PHASE_TIMING_H_
