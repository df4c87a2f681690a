#include "shardkit/internal/phase_timing.h"

#include <time.h>

#include "fmt/format.h"

namespace shardkit {
namespace {

thread_local PhaseRecorder* active_recorder = nullptr;

double processCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 +
         static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

PhaseRecorder::PhaseRecorder() : outer_(active_recorder) {
  active_recorder = this;
}

PhaseRecorder::~PhaseRecorder() { active_recorder = outer_; }

PhaseRecorder* PhaseRecorder::active() { return active_recorder; }

TimedPhase::TimedPhase(std::string_view name) : recorder_(active_recorder) {
  if (recorder_ == nullptr) return;
  index_ = recorder_->phases_.size();
  recorder_->phases_.push_back({std::string(name), recorder_->depth_++, 0, 0});
  cpu_start_ms_ = processCpuMs();
  start_ = std::chrono::steady_clock::now();
}

TimedPhase::~TimedPhase() {
  if (recorder_ == nullptr) return;
  auto elapsed = std::chrono::steady_clock::now() - start_;
  PhaseTiming& phase = recorder_->phases_[index_];
  phase.ms += std::chrono::duration<double, std::milli>(elapsed).count();
  phase.cpu_ms += processCpuMs() - cpu_start_ms_;
  --recorder_->depth_;
}

std::string formatPhases(const std::vector<PhaseTiming>& phases) {
  // A phase repeated under one parent (in a loop) is one line, with the
  // phases nested in its runs merged the same way.
  struct Line {
    std::string name;
    int depth;
    double ms;
    double cpu_ms;
    int count;
  };
  std::vector<Line> lines;
  double total = 0, total_cpu = 0;
  for (const PhaseTiming& phase : phases) {
    if (phase.depth == 0) {
      total += phase.ms;
      total_cpu += phase.cpu_ms;
    }
    // A line of the same name and depth since the parent's line.
    size_t same = lines.size();
    for (size_t i = lines.size(); i-- > 0 && lines[i].depth >= phase.depth;) {
      if (lines[i].depth == phase.depth && lines[i].name == phase.name) {
        same = i;
        break;
      }
    }
    if (same < lines.size()) {
      lines[same].ms += phase.ms;
      lines[same].cpu_ms += phase.cpu_ms;
      ++lines[same].count;
    } else {
      lines.push_back({phase.name, phase.depth, phase.ms, phase.cpu_ms, 1});
    }
  }
  std::string out = "   wall time    CPU time\n";
  for (const Line& line : lines) {
    std::string name = line.count > 1
                           ? fmt::format("{} (x{})", line.name, line.count)
                           : line.name;
    out += fmt::format("  {:>9.1f} ms {:>8.1f} ms  {:{}}{}\n", line.ms,
                       line.cpu_ms, "", 2 * line.depth, name);
  }
  out += fmt::format("  {:>9.1f} ms {:>8.1f} ms  total\n", total, total_cpu);
  return out;
}

}  // namespace shardkit
