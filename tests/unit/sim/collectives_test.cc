// Out-sharding inference and verification of every collective kind.
#include "shardkit/sim/collectives.h"

#include <catch2/catch.hpp>

#include "fmt/format.h"
#include "tests/unit/sim/sim_test_util.h"

namespace shardkit {
namespace {

using testing::axesPerDim;
using testing::axisList;
using testing::mesh;
using testing::messageOf;
using testing::params;
using testing::sharding;

constexpr std::string_view kXYZ = R"(<["x"=2, "y"=2, "z"=2]>)";
constexpr std::string_view kX4Y = R"(<["x"=4, "y"=2]>)";

std::string inferred(const absl::StatusOr<TensorSharding>& result) {
  INFO(messageOf(result.status()));
  REQUIRE(result.ok());
  return toString(*result);
}

std::string errorOf(const absl::StatusOr<TensorSharding>& result) {
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == absl::StatusCode::kInvalidArgument);
  return messageOf(result.status());
}

TEST_CASE("all_gather removes a suffix of each dimension") {
  CHECK(inferred(inferAllGather(sharding(R"(<@m, [{"x", "y"}, {"z", ?}]>)"),
                                axesPerDim(R"([{"y"}, {"z"}])"), mesh(kXYZ))) ==
        R"(<@m, [{"x"}, {}]>)");
  // A sub-axis suffix of a full axis leaves its prefix.
  CHECK(inferred(inferAllGather(sharding(R"(<@m, [{"x"}, {}]>)"),
                                axesPerDim(R"([{"x":(2)2}, {}])"),
                                mesh(kX4Y))) == R"(<@m, [{"x":(1)2}, {}]>)");
  // Unreduced axes stay; replicated axes are not part of the result.
  CHECK(inferred(inferAllGather(
            sharding(R"(<@m, [{"x"}, {}], replicated={"z"}, unreduced={"y"}>)"),
            axesPerDim(R"([{"x"}, {}])"), mesh(kXYZ))) ==
        R"(<@m, [{}, {}], unreduced={"y"}>)");
  CHECK(errorOf(inferAllGather(sharding(R"(<@m, [{"x", "y"}, {}]>)"),
                               axesPerDim(R"([{"x"}, {}])"), mesh(kXYZ))) ==
        R"(can't apply gathering axis "x" to operand sharding on dimension 0)");
  CHECK(errorOf(inferAllGather(sharding(R"(<@m, [{"x"}, {}]>)"),
                               axesPerDim(R"([{"x"}])"), mesh(kXYZ))) ==
        "operand sharding has rank 2 but collective axes has rank 1");
}

TEST_CASE("all_slice appends and merges consecutive sub-axes") {
  CHECK(inferred(inferAllSlice(sharding(R"(<@m, [{"x":(1)2}, {}]>)"),
                               axesPerDim(R"([{"x":(2)2}, {"y"}])"),
                               mesh(kX4Y))) == R"(<@m, [{"x"}, {"y"}]>)");
  // Slicing along an unreduced axis would make the result invalid.
  CHECK(errorOf(inferAllSlice(sharding(R"(<@m, [{}, {}], unreduced={"y"}>)"),
                              axesPerDim(R"([{"y"}, {}])"), mesh(kXYZ))) ==
        R"(duplicate axis ref: "y")");
}

TEST_CASE("all_to_all moves axes from source to target dimensions") {
  CHECK(inferred(inferAllToAll(sharding(R"(<@m, [{"x", "y"}, {"z"}, {}]>)"),
                               params(R"([{"y"}: 0->2])"), mesh(kXYZ))) ==
        R"(<@m, [{"x"}, {"z"}, {"y"}]>)");
  CHECK(inferred(inferAllToAll(sharding(R"(<@m, [{"x"}, {}, {}, {"y"}]>)"),
                               params(R"([{"x"}: 0->1, {"y"}: 3->2])"),
                               mesh(kXYZ))) ==
        R"(<@m, [{}, {"x"}, {"y"}, {}]>)");
  CHECK(errorOf(inferAllToAll(sharding(R"(<@m, [{"x"}, {"z"}, {}]>)"),
                              params(R"([{"z"}: 1->0, {"x"}: 0->2])"),
                              mesh(kXYZ))) ==
        "overlapping source/target dimensions in all-to-all params: 0");
  CHECK(
      errorOf(inferAllToAll(sharding(R"(<@m, [{"x"}, {}]>)"),
                            params(R"([{"y"}: 0->1])"), mesh(kXYZ))) ==
      R"(can't apply all-to-all axis "y" to operand sharding on dimension 0)");
}

TEST_CASE("collective_permute keeps shard counts and unreduced axes") {
  Mesh m = mesh(kX4Y);
  CHECK(inferred(inferCollectivePermute(
            sharding(R"(<@m, [{"x":(1)2}, {"y"}], unreduced={"x":(2)2}>)"), m,
            sharding(R"(<@m, [{"y"}, {"x":(1)2}]>)"), m)) ==
        R"(<@m, [{"y"}, {"x":(1)2}], unreduced={"x":(2)2}>)");
  // To another device order of the same axes.
  Mesh reordered =
      mesh(R"(<["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>)");
  CHECK(inferred(inferCollectivePermute(sharding(R"(<@m, [{"x"}, {}]>)"), m,
                                        sharding(R"(<@m2, [{"x"}, {}]>)"),
                                        reordered)) == R"(<@m2, [{"x"}, {}]>)");
  CHECK(errorOf(inferCollectivePermute(sharding(R"(<@m, [{"x"}, {}]>)"), m,
                                       sharding(R"(<@m, [{"y"}, {}]>)"), m)) ==
        "sharded size of result doesn't match operand on dimension 0: 2 != 4");
}

TEST_CASE("all_reduce removes the reduction axes from the unreduced axes") {
  Mesh m = mesh(kX4Y);
  CHECK(inferred(inferAllReduce(
            sharding(R"(<@m, [{}, {"y"}], unreduced=max{"x"}>)"),
            axisList(R"({"x":(1)2})"), ReductionKind::kMax, m)) ==
        R"(<@m, [{}, {"y"}], unreduced=max{"x":(2)2}>)");
  // Once none remain, the reduction kind no longer matters.
  CHECK(inferred(inferAllReduce(
            sharding(R"(<@m, [{}, {}], unreduced=min{"x", "y"}>)"),
            axisList(R"({"x", "y"})"), ReductionKind::kMin, m)) ==
        R"(<@m, [{}, {}]>)");
  CHECK(
      errorOf(inferAllReduce(sharding(R"(<@m, [{}, {}], unreduced=min{"x"}>)"),
                             axisList(R"({"x"})"), ReductionKind::kSum, m)) ==
      "reduction sum doesn't match the operand's min unreduced axes");
  CHECK(errorOf(inferAllReduce(sharding(R"(<@m, [{"x"}, {}]>)"),
                               axisList(R"({"x"})"), ReductionKind::kSum, m))
            .find("overlaps with operand") != std::string::npos);
}

TEST_CASE("reduce_scatter reduces and slices") {
  CHECK(inferred(inferReduceScatter(
            sharding(R"(<@m, [{"x"}, {}], unreduced={"y", "z"}>)"),
            axesPerDim(R"([{"y"}, {}])"), ReductionKind::kSum, mesh(kXYZ))) ==
        R"(<@m, [{"x", "y"}, {}], unreduced={"z"}>)");
}

TEST_CASE("sharded_to_unreduced and replicated_to_unreduced add axes") {
  Mesh xyz = mesh(kXYZ);
  // Added axes are sorted in mesh order and merged with those present.
  CHECK(inferred(inferShardedToUnreduced(sharding(R"(<@m, [{"y", "z", "x"}]>)"),
                                         axesPerDim(R"([{"z", "x"}])"), xyz)) ==
        R"(<@m, [{"y"}], unreduced={"x", "z"}>)");
  CHECK(inferred(inferShardedToUnreduced(
            sharding(R"(<@m, [{"x":(2)2}, {}], unreduced={"x":(1)2}>)"),
            axesPerDim(R"([{"x":(2)2}, {}])"), mesh(kX4Y))) ==
        R"(<@m, [{}, {}], unreduced={"x"}>)");
  // Explicitly replicated or not, an unused axis can become unreduced.
  CHECK(inferred(inferReplicatedToUnreduced(
            sharding(R"(<@m, [{"x"}, {}], replicated={"z"}>)"),
            axisList(R"({"z", "y"})"), xyz)) ==
        R"(<@m, [{"x"}, {}], unreduced={"y", "z"}>)");
  CHECK(errorOf(inferReplicatedToUnreduced(sharding(R"(<@m, [{"x"}, {}]>)"),
                                           axisList(R"({"x"})"), xyz)) ==
        R"(axis "x" overlaps with the operand's dimension sharding)");
  CHECK(errorOf(inferReplicatedToUnreduced(
            sharding(R"(<@m, [{}, {}], unreduced={"y"}>)"),
            axisList(R"({"y"})"), xyz)) ==
        R"(axis "y" overlaps with the operand's unreduced axes)");
}

TEST_CASE("verifyCollective compares the out sharding with the inferred one") {
  MeshTable meshes = testing::meshTable(kXYZ);
  TensorSharding operand = sharding(R"(<@m, [{"x", "y"}, {}]>)");
  Collective gather;
  gather.kind = CollectiveKind::kAllGather;
  gather.axes_per_dim = axesPerDim(R"([{"y"}, {}])");
  // Open dimensions and replicated axes are not part of the comparison.
  gather.out_sharding = sharding(R"(<@m, [{"x", ?}, {}], replicated={"z"}>)");
  CHECK(verifyCollective(gather, operand, meshes).ok());
  gather.out_sharding = sharding(R"(<@m, [{"y"}, {}]>)");
  CHECK(messageOf(verifyCollective(gather, operand, meshes)) ==
        R"(out sharding <@m, [{"y"}, {}]> of all_gather doesn't match the )"
        R"(inferred sharding <@m, [{"x"}, {}]>)");
  CHECK(messageOf(verifyCollective(
            gather, sharding(R"(<@other, [{"x", "y"}, {}]>)"), meshes)) ==
        "unknown mesh: @other");
}

TEST_CASE("a collective prints like its op") {
  Collective reduce;
  reduce.kind = CollectiveKind::kAllReduce;
  reduce.axes = axisList(R"({"x"})");
  reduce.reduction = ReductionKind::kMax;
  reduce.out_sharding = sharding(R"(<@m, [{}, {}]>)");
  CHECK(toString(reduce) ==
        R"(all_reduce max {"x"} out_sharding=<@m, [{}, {}]>)");
  CHECK(fmt::format("{}", reduce) == toString(reduce));
  Collective a2a;
  a2a.kind = CollectiveKind::kAllToAll;
  a2a.params = params(R"([{"x"}: 0->1])");
  a2a.out_sharding = sharding(R"(<@m, [{}, {"x"}]>)");
  CHECK(toString(a2a) ==
        R"(all_to_all [{"x"}: 0->1] out_sharding=<@m, [{}, {"x"}]>)");
  Collective permute;
  permute.kind = CollectiveKind::kCollectivePermute;
  permute.out_sharding = sharding(R"(<@m, [{"y"}, {}]>)");
  CHECK(toString(permute) ==
        R"(collective_permute out_sharding=<@m, [{"y"}, {}]>)");
}

}  // namespace
}  // namespace shardkit
