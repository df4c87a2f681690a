// The host simulator: which device holds which elements, how collectives
// move and reduce them, and that wrong collectives or wrong data are caught.
#include "shardkit/sim/simulator.h"

#include <catch2/catch.hpp>
#include <vector>

#include "tests/unit/sim/sim_test_util.h"

namespace shardkit {
namespace {

using testing::axesPerDim;
using testing::axisList;
using testing::mesh;
using testing::messageOf;
using testing::sharding;

using Shards = std::vector<std::vector<int64_t>>;

constexpr std::string_view kXY = R"(<["x"=2, "y"=2]>)";

DistributedTensor iota(std::vector<int64_t> shape, std::string_view s,
                       std::string_view m, uint64_t seed = 0) {
  absl::StatusOr<DistributedTensor> tensor =
      distributeIota(shape, sharding(s), mesh(m), seed);
  INFO(messageOf(tensor.status()));
  REQUIRE(tensor.ok());
  return *std::move(tensor);
}

Collective collective(CollectiveKind kind, std::string_view out) {
  Collective c;
  c.kind = kind;
  c.out_sharding = sharding(out);
  return c;
}

TEST_CASE("each device holds the block its mesh coordinates select") {
  // Device 1 is at x=0, y=1: rows 0-1, columns 2-3.
  CHECK(iota({4, 4}, R"(<@m, [{"x"}, {"y"}]>)", kXY).shards ==
        Shards{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}});
  // Axes of one dimension read major to minor.
  CHECK(iota({4}, R"(<@m, [{"y", "x"}]>)", kXY).shards ==
        Shards{{0}, {2}, {1}, {3}});
  // Sub-axis "x":(2)2 of x=4 is the minor digit of x's coordinate.
  CHECK(iota({4}, R"(<@m, [{"x":(2)2, "x":(1)2}]>)", R"(<["x"=4]>)").shards ==
        Shards{{0}, {2}, {1}, {3}});
  // The device order decides which device sits at which coordinate.
  CHECK(
      iota({2}, R"(<@m, [{"x"}]>)", R"(<["x"=2], device_ids=[1, 0]>)").shards ==
      Shards{{1}, {0}});
  // A dimension that does not divide is padded at the end.
  CHECK(iota({3}, R"(<@m, [{"x"}]>)", kXY).shards ==
        Shards{{0, 1}, {0, 1}, {2, kPadding}, {2, kPadding}});
}

TEST_CASE("unreduced axes hold partial values that reduce to the element") {
  DistributedTensor sum =
      iota({4}, R"(<@m, [{"y"}], unreduced={"x"}>)", kXY, 7);
  CHECK(sum.shards[0] != Shards{{0, 1}}[0]);  // Really split.
  for (int id = 0; id < 2; ++id) {
    for (int k = 0; k < 2; ++k) {
      CHECK(sum.shards[id][k] + sum.shards[id + 2][k] == id * 2 + k);
    }
  }
  CHECK(checkHoldsIota(sum, sum.sharding, sum.mesh).ok());
  sum.shards[3][1] += 1;
  CHECK(messageOf(checkHoldsIota(sum, sum.sharding, sum.mesh)) ==
        "device 1 holds 4 at local offset 1 instead of 3");

  DistributedTensor max =
      iota({4}, R"(<@m, [{}], unreduced=max{"x", "y"}>)", kXY, 3);
  CHECK(checkHoldsIota(max, max.sharding, max.mesh).ok());
}

TEST_CASE("checkHoldsIota compares the distribution first") {
  DistributedTensor t = iota({4}, R"(<@m, [{"x"}]>)", kXY);
  CHECK(messageOf(checkHoldsIota(t, sharding(R"(<@m, [{"y"}]>)"), mesh(kXY))) ==
        R"(the tensor is sharded <@m, [{"x"}]> on <["x"=2, "y"=2]>, not )"
        R"(<@m, [{"y"}]> on <["x"=2, "y"=2]>)");
}

TEST_CASE("all_gather, all_slice and all_to_all move blocks") {
  DistributedTensor t = iota({4, 4}, R"(<@m, [{"x", "y"}, {}]>)", kXY);
  Collective gather =
      collective(CollectiveKind::kAllGather, R"(<@m, [{"x"}, {}]>)");
  gather.axes_per_dim = axesPerDim(R"([{"y"}, {}])");
  absl::StatusOr<DistributedTensor> gathered =
      simulateCollective(t, gather, t.mesh);
  REQUIRE(gathered.ok());
  CHECK(gathered->shards[1] == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(checkHoldsIota(*gathered, gather.out_sharding, t.mesh).ok());

  Collective a2a =
      collective(CollectiveKind::kAllToAll, R"(<@m, [{"x"}, {"y"}]>)");
  a2a.params = testing::params(R"([{"y"}: 0->1])");
  absl::StatusOr<DistributedTensor> moved = simulateCollective(t, a2a, t.mesh);
  REQUIRE(moved.ok());
  CHECK(checkHoldsIota(*moved, a2a.out_sharding, t.mesh).ok());

  // A slice can only keep elements the device holds: reordering the axes
  // needs communication.
  Collective reorder =
      collective(CollectiveKind::kAllSlice, R"(<@m, [{"y", "x"}, {}]>)");
  reorder.axes_per_dim = axesPerDim(R"([{}, {}])");
  CHECK(messageOf(simulateCollective(t, reorder, t.mesh).status()) ==
        "all_slice: device 1 needs element 8, which no device of its group "
        "holds");
  // Gathering along y cannot produce what gathering along x would.
  Collective wrong_gather =
      collective(CollectiveKind::kAllGather, R"(<@m, [{"y"}, {}]>)");
  wrong_gather.axes_per_dim = axesPerDim(R"([{"y"}, {}])");
  CHECK_FALSE(simulateCollective(t, wrong_gather, t.mesh).ok());
}

TEST_CASE("collective_permute sends whole blocks, across device orders") {
  DistributedTensor t = iota({4}, R"(<@m, [{"x", "y"}]>)", kXY);
  Mesh reversed = mesh(R"(<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>)");
  Collective permute =
      collective(CollectiveKind::kCollectivePermute, R"(<@m2, [{"x", "y"}]>)");
  absl::StatusOr<DistributedTensor> result =
      simulateCollective(t, permute, reversed);
  REQUIRE(result.ok());
  CHECK(result->shards == Shards{{3}, {2}, {1}, {0}});
  CHECK(checkHoldsIota(*result, permute.out_sharding, reversed).ok());
  Collective resize =
      collective(CollectiveKind::kCollectivePermute, R"(<@m, [{"x"}]>)");
  CHECK(messageOf(simulateCollective(t, resize, t.mesh).status()) ==
        "collective_permute: the shard shape changes");
}

TEST_CASE("reductions and the unreduced conversions") {
  MeshTable meshes = testing::meshTable(kXY);
  TensorSharding source = sharding(R"(<@m, [{"x"}, {"y"}]>)");
  Collective to_unreduced = collective(CollectiveKind::kShardedToUnreduced,
                                       R"(<@m, [{}, {"y"}], unreduced={"x"}>)");
  to_unreduced.axes_per_dim = axesPerDim(R"([{"x"}, {}])");
  Collective scatter =
      collective(CollectiveKind::kReduceScatter, R"(<@m, [{}, {"y", "x"}]>)");
  scatter.axes_per_dim = axesPerDim(R"([{}, {"x"}])");
  Collective add = collective(CollectiveKind::kReplicatedToUnreduced,
                              R"(<@m, [{}, {"y"}], unreduced={"x"}>)");
  add.axes = axisList(R"({"x"})");
  Collective reduce =
      collective(CollectiveKind::kAllReduce, R"(<@m, [{}, {"y"}]>)");
  reduce.axes = axisList(R"({"x"})");
  Collective gather =
      collective(CollectiveKind::kAllGather, R"(<@m, [{}, {"y"}]>)");
  gather.axes_per_dim = axesPerDim(R"([{}, {"x"}])");
  CHECK(simulateReshard({4, 4}, source,
                        {to_unreduced, scatter, gather, add, reduce},
                        sharding(R"(<@m, [{}, {"y"}]>)"), meshes)
            .ok());
  // A max over partial sums is not the element.
  DistributedTensor partial =
      iota({4, 4}, R"(<@m, [{}, {"y"}], unreduced={"x"}>)", kXY, 5);
  Collective wrong_reduce = reduce;
  wrong_reduce.reduction = ReductionKind::kMax;
  absl::StatusOr<DistributedTensor> reduced =
      simulateCollective(partial, wrong_reduce, partial.mesh);
  REQUIRE(reduced.ok());
  CHECK(messageOf(
            checkHoldsIota(*reduced, wrong_reduce.out_sharding, partial.mesh))
            .find("instead of") != std::string::npos);
  CHECK(messageOf(simulateReshard({4, 4}, partial.sharding, {wrong_reduce},
                                  wrong_reduce.out_sharding, meshes))
            .find("reduction max doesn't match") != std::string::npos);
}

TEST_CASE("simulateReshard checks every out sharding") {
  MeshTable meshes = testing::meshTable(kXY);
  Collective gather =
      collective(CollectiveKind::kAllGather, R"(<@m, [{"y"}, {}]>)");
  gather.axes_per_dim = axesPerDim(R"([{"y"}, {}])");
  CHECK(messageOf(simulateReshard({4, 4}, sharding(R"(<@m, [{"x", "y"}, {}]>)"),
                                  {gather}, sharding(R"(<@m, [{"y"}, {}]>)"),
                                  meshes)) ==
        R"(collective #0 (all_gather [{"y"}, {}] out_sharding=<@m, [{"y"}, )"
        R"({}]>): out sharding <@m, [{"y"}, {}]> of all_gather doesn't match )"
        R"(the inferred sharding <@m, [{"x"}, {}]>)");
}

TEST_CASE("malformed collectives and shardings are errors, not crashes") {
  DistributedTensor t = iota({4}, R"(<@m, [{"x", "y"}]>)", kXY);
  Collective unknown =
      collective(CollectiveKind::kAllGather, R"(<@m, [{"x"}]>)");
  unknown.axes_per_dim = axesPerDim(R"([{"q"}])");
  CHECK(messageOf(simulateCollective(t, unknown, t.mesh).status()) ==
        "all_gather: unknown axis name: \"q\"");
  Collective bad_sub_axis =
      collective(CollectiveKind::kAllReduce, R"(<@m, [{"x", "y"}]>)");
  bad_sub_axis.axes = axisList(R"({"x":(4)2})");
  CHECK_FALSE(simulateCollective(t, bad_sub_axis, t.mesh).ok());
  Collective bad_out =
      collective(CollectiveKind::kAllSlice, R"(<@m, [{"x", "x"}]>)");
  CHECK_FALSE(simulateCollective(t, bad_out, t.mesh).ok());
  CHECK_FALSE(
      distributeIota({4}, sharding(R"(<@m, [{"w"}]>)"), mesh(kXY)).ok());
  CHECK_FALSE(
      distributeIota({4, 4}, sharding(R"(<@m, [{"x"}]>)"), mesh(kXY)).ok());
}

}  // namespace
}  // namespace shardkit
