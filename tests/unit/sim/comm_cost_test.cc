// The ring cost model of every collective kind.
#include "shardkit/sim/comm_cost.h"

#include <catch2/catch.hpp>

#include "tests/unit/sim/sim_test_util.h"

namespace shardkit {
namespace {

using testing::axesPerDim;
using testing::axisList;
using testing::mesh;
using testing::params;
using testing::sharding;

constexpr std::string_view kX4 = R"(<["x"=4, "y"=2]>)";

Collective make(CollectiveKind kind, std::string_view out) {
  Collective c;
  c.kind = kind;
  c.out_sharding = sharding(out);
  return c;
}

CommCost cost(const Collective& c, std::string_view operand,
              std::vector<int64_t> shape, std::string_view mesh_text = kX4,
              std::string_view target_mesh = kX4) {
  absl::StatusOr<CommCost> result =
      communicationCost(c, sharding(operand), mesh(mesh_text),
                        mesh(target_mesh), shape, /*element_bytes=*/4);
  REQUIRE(result.ok());
  return *result;
}

TEST_CASE("element sizes") {
  CHECK(elementByteSize("f32") == 4);
  CHECK(elementByteSize("bf16") == 2);
  CHECK(elementByteSize("f64") == 8);
  CHECK(elementByteSize("i1") == 1);
  CHECK(elementByteSize("ui32") == 4);
  CHECK(elementByteSize("f8E4M3FN") == 1);
  CHECK(elementByteSize("complex<f32>") == 8);
  CHECK(elementByteSize("index") == 8);
  CHECK_FALSE(elementByteSize("!stablehlo.token").has_value());
  CHECK_FALSE(elementByteSize("i").has_value());
  CHECK_FALSE(elementByteSize("i32x").has_value());
}

TEST_CASE("all_gather of a 16x8 f32 tensor over x=4 receives 3 shards") {
  Collective c = make(CollectiveKind::kAllGather, R"(<@m, [{}, {}]>)");
  c.axes_per_dim = axesPerDim(R"([{"x"}, {}])");
  CommCost got = cost(c, R"(<@m, [{"x"}, {}]>)", {16, 8});
  CHECK(got.local_bytes_in == 128);
  CHECK(got.group_size == 4);
  CHECK(got.bytes_received_per_device == 384);
}

TEST_CASE("slices, all-to-alls, reductions") {
  Collective slice = make(CollectiveKind::kAllSlice, R"(<@m, [{"x"}, {}]>)");
  slice.axes_per_dim = axesPerDim(R"([{"x"}, {}])");
  CHECK(cost(slice, R"(<@m, [{}, {}]>)", {16, 8}).bytes_received_per_device ==
        0);

  Collective to_all = make(CollectiveKind::kAllToAll, R"(<@m, [{}, {"x"}]>)");
  to_all.params = params(R"([{"x"}: 0->1])");
  CHECK(
      cost(to_all, R"(<@m, [{"x"}, {}]>)", {16, 8}).bytes_received_per_device ==
      96);

  Collective reduce = make(CollectiveKind::kAllReduce, R"(<@m, [{}, {}]>)");
  reduce.axes = axisList(R"({"x"})");
  CHECK(cost(reduce, R"(<@m, [{}, {}], unreduced={"x"}>)", {16, 8})
            .bytes_received_per_device == 768);

  Collective scatter =
      make(CollectiveKind::kReduceScatter, R"(<@m, [{"x"}, {}]>)");
  scatter.axes_per_dim = axesPerDim(R"([{"x"}, {}])");
  CHECK(cost(scatter, R"(<@m, [{}, {}], unreduced={"x"}>)", {16, 8})
            .bytes_received_per_device == 384);

  // Sub-axes count by their size; padding counts as data.
  Collective sub = make(CollectiveKind::kAllGather, R"(<@m, [{}, {}]>)");
  sub.axes_per_dim = axesPerDim(R"([{"x":(1)2}, {}])");
  CommCost padded = cost(sub, R"(<@m, [{"x":(1)2}, {}]>)", {15, 8});
  CHECK(padded.group_size == 2);
  CHECK(padded.local_bytes_in == 8 * 8 * 4);
  CHECK(padded.bytes_received_per_device == 256);
}

TEST_CASE("collective_permute: a shard that moves, or none") {
  Collective moved =
      make(CollectiveKind::kCollectivePermute, R"(<@m, [{"y"}, {"x"}]>)");
  CHECK(cost(moved, R"(<@m, [{"x"}, {"y"}]>)", {8, 8})
            .bytes_received_per_device == 32);
  Collective same =
      make(CollectiveKind::kCollectivePermute, R"(<@m, [{"x"}, {"y"}]>)");
  CHECK(
      cost(same, R"(<@m, [{"x"}, {"y"}]>)", {8, 8}).bytes_received_per_device ==
      0);
  // Another device order moves every shard.
  CHECK(cost(same, R"(<@m, [{"x"}, {"y"}]>)", {8, 8}, kX4,
             R"(<["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>)")
            .bytes_received_per_device == 32);
}

TEST_CASE("unreduced conversions are local; bad shapes are errors") {
  Collective s2u = make(CollectiveKind::kShardedToUnreduced,
                        R"(<@m, [{}, {}], unreduced={"x"}>)");
  s2u.axes_per_dim = axesPerDim(R"([{"x"}, {}])");
  CHECK(cost(s2u, R"(<@m, [{"x"}, {}]>)", {16, 8}).bytes_received_per_device ==
        0);
  absl::StatusOr<CommCost> wrong_rank = communicationCost(
      s2u, sharding(R"(<@m, [{"x"}, {}]>)"), mesh(kX4), mesh(kX4), {16}, 4);
  CHECK_FALSE(wrong_rank.ok());
}

}  // namespace
}  // namespace shardkit
