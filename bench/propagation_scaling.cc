// propagation_scaling OPS: builds a transformer-like module of about OPS ops
// and runs the propagation pipeline on it (import pipeline, user-priority
// propagation, export pipeline: what -sdy-propagation-pipeline does), timing
// each phase. Prints one line:
//   ops=N build_ms=… import_ms=… propagate_ms=… export_ms=… pipeline_ms=…
//   op_visits=… skipped_visits=… updates=… us_per_visit=… peak_rss_mb=…
// One size per process, so the peak resident memory is that size's.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/workloads/transformer.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/propagation/propagate.h"

using namespace shardkit;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point& start) {
  Clock::time_point now = Clock::now();
  double ms = std::chrono::duration<double, std::milli>(now - start).count();
  start = now;
  return ms;
}

int fail(const absl::Status& status) {
  std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: propagation_scaling OPS\n");
    return 2;
  }
  bench::TransformerShape shape;
  shape.layers = bench::layersForOps(std::atoll(argv[1]));
  Clock::time_point t = Clock::now();
  std::unique_ptr<Module> module = bench::buildTransformer(shape);
  double build_ms = msSince(t);
  size_t ops = module->numOps();

  if (absl::Status s = runImportPipeline(*module); !s.ok()) return fail(s);
  double import_ms = msSince(t);
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.op_priorities = true;
  options.user_priorities = true;
  absl::StatusOr<PropagationStats> stats = propagate(*module, options);
  if (!stats.ok()) return fail(stats.status());
  double propagate_ms = msSince(t);
  if (absl::Status s = runExportPipeline(*module); !s.ok()) return fail(s);
  double export_ms = msSince(t);

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "ops=%zu build_ms=%.1f import_ms=%.1f propagate_ms=%.1f export_ms=%.1f "
      "pipeline_ms=%.1f op_visits=%lld skipped_visits=%lld updates=%lld "
      "us_per_visit=%.3f "
      "peak_rss_mb=%.1f\n",
      ops, build_ms, import_ms, propagate_ms, export_ms,
      import_ms + propagate_ms + export_ms,
      static_cast<long long>(stats->op_visits),
      static_cast<long long>(stats->skipped_visits),
      static_cast<long long>(stats->updates),
      1000.0 * propagate_ms / static_cast<double>(stats->op_visits),
      usage.ru_maxrss / 1024.0);
  // The process ends here; freeing the module would only add to the time.
  module.release();
  return 0;
}
