// With two threads, the driver classifies a module's ops on a second thread
// while it reads the shardings, and each op's first visit adopts its
// classification (op_classification.h). The module, the statistics and any
// error must be those of the one-thread run: on random modules, with the
// registry's rules kept, with rules of the ops' own, and with ops whose
// classification fails.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/propagation/propagate.h"
#include "shardkit/support/strings.h"
#include "unit/propagation/driver_test_util.h"
#include "unit/propagation/random_module.h"

namespace shardkit {
namespace {

using testing::firstOp;
using testing::parseModuleOrDie;
using testing::randomModuleText;

// The module after propagation with `threads` (every module large enough
// for the second thread), with the statistics; or the error.
std::string propagateWith(const std::string& text, int threads,
                          PropagationOptions options = {},
                          void (*change)(Module&) = nullptr) {
  std::unique_ptr<Module> module = parseModuleOrDie(text);
  if (change != nullptr) change(*module);
  options.threads = threads;
  options.parallel_min_ops = 0;
  absl::StatusOr<PropagationStats> stats = propagate(*module, options);
  if (!stats.ok()) return "error: " + std::string(stats.status().message());
  return strCat(printModule(*module), "rounds ", stats->rounds, ", visits ",
                stats->op_visits, ", skipped ", stats->skipped_visits,
                ", updates ", stats->updates);
}

TEST_CASE("preclassification: random modules come out as on one thread") {
  PropagationOptions aggressive;
  aggressive.strategy = PropagationStrategy::kAggressive;
  aggressive.op_priorities = true;
  aggressive.user_priorities = true;
  PropagationOptions kept;
  kept.keep_sharding_rules = true;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    testing::RandomModuleOptions gen;
    gen.data_flow_edges = seed % 2 == 0;
    std::string text = randomModuleText(seed, gen);
    INFO(strCat("seed ", seed, "\n", text));
    for (const PropagationOptions& options :
         {PropagationOptions{}, aggressive, kept}) {
      std::string one = propagateWith(text, 1, options);
      CHECK(one.rfind("error", 0) != 0);
      CHECK(propagateWith(text, 2, options) == one);
    }
  }
}

// Ops of one signature share a rule; a concatenate and a custom call are
// never shared; one op has a rule of its own, which propagation removes
// unless the registry's rules are kept.
constexpr const char* kRules = R"(
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> (tensor<8x8xf32>, tensor<16x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  %3 = stablehlo.add %1, %2 : tensor<8x8xf32>
  %4 = stablehlo.concatenate %3, %2, dim = 0 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  %5 = stablehlo.concatenate %4, %4, dim = 1 : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>
  %6 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}, custom>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %7 = stablehlo.negate %6 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
  %8 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %9 = stablehlo.add %8, %3 : tensor<8x8xf32>
  return %9, %5, %7 : tensor<8x8xf32>, tensor<16x16xf32>, tensor<8x16xf32>
}
)";

TEST_CASE("preclassification: shared, unshared and own rules") {
  std::string one = propagateWith(kRules, 1);
  CHECK(one.find("sdy.sharding_rule") != std::string::npos);  // the custom
  CHECK(propagateWith(kRules, 2) == one);
  PropagationOptions kept;
  kept.keep_sharding_rules = true;
  std::string kept_one = propagateWith(kRules, 1, kept);
  CHECK(kept_one != one);
  CHECK(propagateWith(kRules, 2, kept) == kept_one);
}

TEST_CASE("preclassification: an op whose classification fails") {
  // The transpose loses its permutation after parsing: the registry rejects
  // it at its first visit, on either path.
  constexpr const char* kTranspose = R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.negate %1 : tensor<16x8xf32>
  %3 = stablehlo.transpose %2, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}
)";
  auto drop_permutations = [](Module& m) {
    m.walk([](Op op) {
      if (op.name() == "stablehlo.transpose") op.removeAttr("permutation");
    });
  };
  std::string one = propagateWith(kTranspose, 1, {}, drop_permutations);
  CHECK(one.find("error: ") == 0);
  CHECK(one.find("permutation") != std::string::npos);
  CHECK(propagateWith(kTranspose, 2, {}, drop_permutations) == one);
  // Without the change both succeed, alike.
  std::string fine = propagateWith(kTranspose, 1);
  CHECK(fine.find("error") == std::string::npos);
  CHECK(propagateWith(kTranspose, 2) == fine);
}

}  // namespace
}  // namespace shardkit
