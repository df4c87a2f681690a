// Reshard plans on hand-picked cases: the collectives, their order, and the
// outcome of every plan in simulation.
#include "shardkit/sim/reshard_plan.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

namespace shardkit {
namespace {

using testing::messageOf;
using testing::sharding;

constexpr std::string_view kXYZ = R"(<["x"=2, "y"=2, "z"=2]>)";

// The plan from `source` to `target` on `@m` (and `@m2`), one collective a
// line, after checking it in simulation.
std::string planText(std::string_view m, std::string_view source,
                     std::string_view target, std::vector<int64_t> shape,
                     std::string_view m2 = "") {
  MeshTable meshes = testing::meshTable(m, m2);
  TensorSharding from = sharding(source), to = sharding(target);
  absl::StatusOr<ReshardPlan> plan =
      planReshard(from, *meshes.resolve(from), to, *meshes.resolve(to), shape);
  INFO(messageOf(plan.status()));
  REQUIRE(plan.ok());
  CHECK_FALSE(plan->gathered_fully);
  std::string text;
  for (const Collective& c : plan->collectives) text += toString(c) + "\n";
  INFO(text);
  absl::Status simulated =
      simulateReshard(shape, from, plan->collectives, to, meshes);
  INFO(messageOf(simulated));
  CHECK(simulated.ok());
  return text;
}

TEST_CASE("a reshard to the same distribution needs no collective") {
  CHECK(planText(kXYZ, R"(<@m, [{"x"}, {"y"}]>)",
                 R"(<@m, [{"x", ?}, {"y"}], replicated={"z"}>)", {8, 8})
            .empty());
  // Replicated everywhere, on whatever mesh.
  CHECK(planText(kXYZ, R"(<@m, [{}, {}]>)", R"(<@m2, [{}, {}]>)", {8, 8},
                 R"(<["a"=8]>)")
            .empty());
}

TEST_CASE("adding and removing axes: all_slice and all_gather") {
  CHECK(planText(kXYZ, R"(<@m, [{"x"}, {}]>)", R"(<@m, [{"x", "z"}, {"y"}]>)",
                 {8, 8}) ==
        "all_slice [{\"z\"}, {\"y\"}] out_sharding=<@m, [{\"x\", \"z\"}, "
        "{\"y\"}]>\n");
  CHECK(planText(kXYZ, R"(<@m, [{"x", "z"}, {"y"}]>)", R"(<@m, [{"x"}, {}]>)",
                 {8, 8}) ==
        "all_gather [{\"z\"}, {\"y\"}] out_sharding=<@m, [{\"x\"}, {}]>\n");
}

TEST_CASE("moving an axis to another dimension: all_to_all") {
  CHECK(planText(kXYZ, R"(<@m, [{"y", "z"}, {}, {"x"}]>)",
                 R"(<@m, [{"y"}, {}, {"x", "z"}]>)", {4, 4, 4}) ==
        "all_to_all [{\"z\"}: 0->2] out_sharding=<@m, [{\"y\"}, {}, {\"x\", "
        "\"z\"}]>\n");
}

TEST_CASE("exchanging axes of the same size: collective_permute") {
  CHECK(planText(kXYZ, R"(<@m, [{"z"}, {"x", "y"}]>)",
                 R"(<@m, [{"y"}, {"x", "z"}]>)", {4, 4}) ==
        "collective_permute out_sharding=<@m, [{\"y\"}, {\"x\", \"z\"}]>\n");
  // Only the device order changes.
  CHECK(
      planText(
          kXYZ, R"(<@m, [{"z"}, {}]>)", R"(<@m2, [{"z"}, {}]>)", {4, 4},
          R"(<["x"=2, "y"=2, "z"=2], device_ids=[1, 0, 3, 2, 5, 4, 7, 6]>)") ==
      "collective_permute out_sharding=<@m2, [{\"z\"}, {}]>\n");
}

TEST_CASE("a bigger axis for a smaller one: sub-axes") {
  CHECK(planText(R"(<["p"=8, "q"=2]>)", R"(<@m, [{"p"}, {}]>)",
                 R"(<@m, [{"q"}, {}]>)", {16, 4}) ==
        "collective_permute out_sharding=<@m, [{\"q\", \"p\":(2)4}, {}]>\n"
        "all_gather [{\"p\":(2)4}, {}] out_sharding=<@m, [{\"q\"}, {}]>\n");
}

TEST_CASE("unreduced axes: all_reduce, sharded_to_unreduced and back") {
  // Reduced, then sliced where the target shards.
  CHECK(planText(kXYZ, R"(<@m, [{}, {"y"}], unreduced={"x"}>)",
                 R"(<@m, [{"x"}, {"y"}]>)", {4, 4}) ==
        "all_reduce {\"x\"} out_sharding=<@m, [{}, {\"y\"}]>\n"
        "all_slice [{\"x\"}, {}] out_sharding=<@m, [{\"x\"}, {\"y\"}]>\n");
  // A max reduction stays a max.
  CHECK(planText(kXYZ, R"(<@m, [{}, {}], unreduced=max{"x", "z"}>)",
                 R"(<@m, [{}, {}], unreduced=max{"z"}>)", {4, 4}) ==
        "all_reduce max {\"x\"} out_sharding=<@m, [{}, {}], "
        "unreduced=max{\"z\"}>\n");
  // The minor axis of a dimension becomes unreduced where it is.
  CHECK(planText(kXYZ, R"(<@m, [{"x", "y"}, {}]>)",
                 R"(<@m, [{"x"}, {}], unreduced={"y"}>)", {4, 4}) ==
        "sharded_to_unreduced [{\"y\"}, {}] out_sharding=<@m, [{\"x\"}, {}], "
        "unreduced={\"y\"}>\n");
  // An axis that shards nothing becomes unreduced at the end.
  CHECK(planText(kXYZ, R"(<@m, [{"x"}, {}]>)",
                 R"(<@m, [{}, {"x"}], unreduced={"z"}>)", {4, 4}) ==
        "all_to_all [{\"x\"}: 0->1] out_sharding=<@m, [{}, {\"x\"}]>\n"
        "replicated_to_unreduced {\"z\"} out_sharding=<@m, [{}, {\"x\"}], "
        "unreduced={\"z\"}>\n");
}

TEST_CASE("sub-axes that cannot coexist are gathered first") {
  CHECK(planText(R"(<["s"=6]>)", R"(<@m, [{"s":(1)2}, {}]>)",
                 R"(<@m, [{}, {"s":(1)3}]>)", {6, 6}) ==
        "all_gather [{\"s\":(1)2}, {}] out_sharding=<@m, [{}, {}]>\n"
        "all_slice [{}, {\"s\":(1)3}] out_sharding=<@m, [{}, {\"s\":(1)3}]>\n");
}

TEST_CASE("reshards that cannot be planned") {
  Mesh m = testing::mesh(kXYZ);
  Mesh other = testing::mesh(R"(<["a"=8]>)");
  auto plan = [&](std::string_view from, const Mesh& from_mesh,
                  std::string_view to, const Mesh& to_mesh,
                  std::vector<int64_t> shape) {
    return planReshard(sharding(from), from_mesh, sharding(to), to_mesh, shape)
        .status();
  };
  CHECK(plan(R"(<@m, [{"x"}]>)", m, R"(<@m, [{"x"}, {}]>)", m, {4}).code() ==
        absl::StatusCode::kUnimplemented);
  CHECK(plan(R"(<@m, [{"x"}, {}]>)", m, R"(<@m2, [{"a"}, {}]>)", other, {8, 8})
            .code() == absl::StatusCode::kUnimplemented);
  CHECK(messageOf(plan(R"(<@m, [{}], unreduced=max{"x"}>)", m,
                       R"(<@m, [{}], unreduced={"x"}>)", m, {4})) ==
        "cannot change the reduction operator of kept unreduced axes from max "
        "to sum.");
  CHECK(messageOf(plan(R"(<@m, [{"x"}, {}]>)", m, R"(<@m, [{}, {}]>)", m,
                       {4})) == "shape of rank 1 for shardings of rank 2");
  CHECK(messageOf(plan(R"(<@m, [{"w"}, {}]>)", m, R"(<@m, [{}, {}]>)", m,
                       {4, 4})) == R"(unknown axis name: "w")");
}

}  // namespace
}  // namespace shardkit
