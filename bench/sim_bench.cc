// Reshard lowering throughput, in reshards per second (items/s):
//   BM_PlanReshard              planReshard on random (mesh, source, target,
//                               shape) cases, the property test's kind;
//   BM_ReshardToCollectivesPass the pass on a function of 1,000 chained
//                               reshards (planning plus building the ops);
//   BM_SimulateReshard          the host simulation of planned reshards.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "shardkit/sim/reshard_plan.h"
#include "shardkit/sim/simulator.h"
#include "shardkit/support/strings.h"
#include "tests/unit/sim/random_reshard.h"

namespace shardkit {
namespace {

constexpr int kCases = 4096;
constexpr int kChainedReshards = 1000;

const std::vector<testing::ReshardCase>& randomCases() {
  static const std::vector<testing::ReshardCase>* cases = [] {
    auto* result = new std::vector<testing::ReshardCase>();
    testing::ReshardGenerator generator(42);
    for (int i = 0; i < kCases; ++i) result->push_back(generator.next());
    return result;
  }();
  return *cases;
}

void BM_PlanReshard(benchmark::State& state) {
  const std::vector<testing::ReshardCase>& cases = randomCases();
  size_t i = 0;
  for (auto _ : state) {
    const testing::ReshardCase& c = cases[i++ % cases.size()];
    absl::StatusOr<ReshardPlan> plan = planReshard(
        c.source, c.sourceMesh(), c.target, c.targetMesh(), c.shape);
    benchmark::DoNotOptimize(plan);
    if (!plan.ok()) state.SkipWithError("planning failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlanReshard);

// A function that reshards its argument 1,000 times, cycling through
// shardings that need every kind of collective.
std::string chainedReshards() {
  static const char* kShardings[] = {
      R"([{"x"}, {"y"}, {}])",       R"([{"x", "z"}, {}, {"y"}])",
      R"([{}, {"y", "x"}, {"z"}])",  R"([{"z"}, {"x"}, {}])",
      R"([{}, {}, {"x", "y"}])",     R"([{"y"}, {"z"}, {"x"}])",
      R"([{"x", "y", "z"}, {}, {}])"};
  const int count = sizeof(kShardings) / sizeof(kShardings[0]);
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2, \"z\"=2]>\n"
      "func.func @main(%arg0: tensor<64x32x16xf32> {sdy.sharding = "
      "#sdy.sharding<@mesh, [{}, {}, {}]>}) -> tensor<64x32x16xf32> {\n";
  std::string last = "%arg0";
  for (int i = 0; i < kChainedReshards; ++i) {
    strAppend(text, "  %", i, " = sdy.reshard ", last, " <@mesh, ",
              kShardings[(i * 3) % count], "> : tensor<64x32x16xf32>\n");
    last = strCat("%", i);
  }
  strAppend(text, "  return ", last, " : tensor<64x32x16xf32>\n}\n");
  return text;
}

void BM_ReshardToCollectivesPass(benchmark::State& state) {
  const std::string text = chainedReshards();
  for (auto _ : state) {
    state.PauseTiming();
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text);
    state.ResumeTiming();
    if (!module.ok() || !reshardToCollectives(**module, {}).ok()) {
      state.SkipWithError("the pass failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * kChainedReshards);
}
BENCHMARK(BM_ReshardToCollectivesPass)->Unit(benchmark::kMillisecond);

void BM_SimulateReshard(benchmark::State& state) {
  const std::vector<testing::ReshardCase>& cases = randomCases();
  std::vector<ReshardPlan> plans;
  for (const testing::ReshardCase& c : cases) {
    plans.push_back(*planReshard(c.source, c.sourceMesh(), c.target,
                                 c.targetMesh(), c.shape));
  }
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ % cases.size();
    const testing::ReshardCase& c = cases[k];
    absl::Status status = simulateReshard(
        c.shape, c.source, plans[k].collectives, c.target, c.meshes);
    if (!status.ok()) state.SkipWithError("simulation failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SimulateReshard);

}  // namespace
}  // namespace shardkit
