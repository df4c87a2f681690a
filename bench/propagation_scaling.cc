// propagation_scaling OPS: builds a transformer-like module of about OPS ops,
// propagates it with the full strategy hierarchy and prints one line:
//   ops=N build_ms=… propagate_ms=… op_visits=… us_per_visit=… peak_rss_mb=…
// One size per process, so the peak resident memory is that size's.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "bench/workloads/transformer.h"
#include "shardkit/propagation/propagate.h"

using namespace shardkit;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: propagation_scaling OPS\n");
    return 2;
  }
  bench::TransformerShape shape;
  shape.layers = bench::layersForOps(std::atoll(argv[1]));
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<Module> module = bench::buildTransformer(shape);
  auto t1 = std::chrono::steady_clock::now();
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.op_priorities = true;
  options.user_priorities = true;
  absl::StatusOr<PropagationStats> stats = propagate(*module, options);
  auto t2 = std::chrono::steady_clock::now();
  if (!stats.ok()) {
    std::fprintf(stderr, "%s\n", std::string(stats.status().message()).c_str());
    return 1;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  double build_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  double prop_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  std::printf(
      "ops=%zu build_ms=%.1f propagate_ms=%.1f op_visits=%lld "
      "us_per_visit=%.3f peak_rss_mb=%.1f\n",
      module->numOps(), build_ms, prop_ms,
      static_cast<long long>(stats->op_visits),
      1000.0 * prop_ms / static_cast<double>(stats->op_visits),
      usage.ru_maxrss / 1024.0);
  return 0;
}
