// Property: for random (mesh, source, target, shape), the planned
// collectives, simulated on host data, leave every device holding exactly
// the shard the target sharding demands.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>

#include "shardkit/sim/reshard_plan.h"
#include "shardkit/sim/simulator.h"
#include "tests/unit/sim/random_reshard.h"

namespace shardkit {
namespace {

constexpr int kCases = 10000;

// Whether every axis of the mesh has a power-of-two size.
bool powerOfTwoMesh(const Mesh& mesh) {
  for (const MeshAxis& axis : mesh.axes) {
    if ((axis.size & (axis.size - 1)) != 0) return false;
  }
  return true;
}

TEST_CASE("planned reshards hold the target's shards in simulation") {
  testing::ReshardGenerator generator(20250611);
  int gathered_fully = 0, gathered_fully_power_of_two = 0;
  int with_unreduced = 0, with_device_order = 0, collectives = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCases; ++i) {
    testing::ReshardCase c = generator.next();
    INFO("case " << i << ": " << c.describe());
    absl::StatusOr<ReshardPlan> plan = planReshard(
        c.source, c.sourceMesh(), c.target, c.targetMesh(), c.shape);
    REQUIRE(plan.ok());
    absl::Status simulated = simulateReshard(
        c.shape, c.source, plan->collectives, c.target, c.meshes, i);
    if (!simulated.ok()) {
      std::string steps;
      for (const Collective& step : plan->collectives) {
        steps += "\n  " + toString(step);
      }
      FAIL(simulated.message() << "\nplan:" << steps);
    }
    collectives += static_cast<int>(plan->collectives.size());
    with_unreduced +=
        !c.source.unreduced_axes.empty() || !c.target.unreduced_axes.empty();
    with_device_order += !(c.source.mesh == c.target.mesh);
    if (plan->gathered_fully) {
      ++gathered_fully;
      gathered_fully_power_of_two += powerOfTwoMesh(c.sourceMesh());
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  WARN(kCases << " reshards (" << with_unreduced << " with unreduced axes, "
              << with_device_order << " to another device order), "
              << collectives << " collectives, " << gathered_fully
              << " by the gather-all fallback, in " << seconds << " s");
  // The reference's algorithm finishes for power-of-two meshes.
  CHECK(gathered_fully_power_of_two == 0);
  // The generator reaches every kind of case.
  CHECK(with_unreduced > kCases / 10);
  CHECK(with_device_order > kCases / 20);
}

}  // namespace
}  // namespace shardkit
