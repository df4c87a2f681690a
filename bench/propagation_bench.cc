// Propagation over transformer-like modules (bench/workloads/transformer.h):
// the full strategy hierarchy (user priorities, op priorities, aggressive),
// as -sdy-propagation-pipeline runs it, per module size.
#include <benchmark/benchmark.h>

#include "bench/workloads/transformer.h"
#include "shardkit/propagation/propagate.h"

namespace shardkit::bench {
namespace {

void BM_PropagateTransformer(benchmark::State& state) {
  TransformerShape shape;
  shape.layers = layersForOps(state.range(0));
  int64_t visits = 0;
  int64_t ops = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<Module> module = buildTransformer(shape);
    ops = static_cast<int64_t>(module->numOps());
    state.ResumeTiming();
    PropagationOptions options;
    options.strategy = PropagationStrategy::kAggressive;
    options.op_priorities = true;
    options.user_priorities = true;
    absl::StatusOr<PropagationStats> stats = propagate(*module, options);
    if (!stats.ok()) {
      state.SkipWithError("propagation failed");
      return;
    }
    visits = stats->op_visits;
    state.PauseTiming();
    module.reset();
    state.ResumeTiming();
  }
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["op_visits"] = static_cast<double>(visits);
  state.counters["us_per_visit"] = benchmark::Counter(
      static_cast<double>(visits) * state.iterations() / 1e6,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PropagateTransformer)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace shardkit::bench
