// The device arithmetic of the partitioner: shard indices, replica groups
// and the pieces a list of axes cuts a mesh into; and local shapes.
#include "shardkit/partition/device_groups.h"

#include <catch2/catch.hpp>
#include <vector>

#include "shardkit/partition/local_shape.h"

namespace shardkit::partition {
namespace {

// A mesh of ["a"=2, "b"=4] numbers device (a, b) as 4a + b.
Mesh mesh24() { return Mesh({{"a", 2}, {"b", 4}}); }

TEST_CASE("shard indices read the coordinates along the axes, first major") {
  const Mesh mesh = mesh24();
  // Device 6 is (a=1, b=2).
  CHECK(*shardIndex(6, mesh, {AxisRef("a")}) == 1);
  CHECK(*shardIndex(6, mesh, {AxisRef("b")}) == 2);
  CHECK(*shardIndex(6, mesh, {AxisRef("a"), AxisRef("b")}) == 6);
  CHECK(*shardIndex(6, mesh, {AxisRef("b"), AxisRef("a")}) == 5);
  // b = 2 is (b:(1)2 = 1, b:(2)2 = 0).
  CHECK(*shardIndex(6, mesh, {AxisRef("b", 1, 2)}) == 1);
  CHECK(*shardIndex(6, mesh, {AxisRef("b", 2, 2)}) == 0);
  CHECK(*shardIndex(6, mesh, {}) == 0);
}

TEST_CASE("shard indices of a mesh with device ids go by position") {
  const Mesh mesh({{"a", 2}, {"b", 2}}, {2, 0, 3, 1});
  // Device 3 sits at position 2: (a=1, b=0).
  CHECK(*shardIndex(3, mesh, {AxisRef("a")}) == 1);
  CHECK(*shardIndex(3, mesh, {AxisRef("b")}) == 0);
  CHECK_FALSE(shardIndex(4, mesh, {AxisRef("a")}).ok());
  CHECK_FALSE(shardIndex(8, mesh24(), {AxisRef("a")}).ok());
  CHECK_FALSE(shardIndex(-1, mesh24(), {AxisRef("a")}).ok());
}

TEST_CASE("replica groups hold the devices that differ along the axes") {
  const Mesh mesh = mesh24();
  ReplicaGroups b = replicaGroups({AxisRef("b")}, mesh);
  CHECK(b.num_groups == 2);
  CHECK(b.group_size == 4);
  CHECK(b.ids == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  ReplicaGroups a = replicaGroups({AxisRef("a")}, mesh);
  CHECK(a.ids == std::vector<int64_t>{0, 4, 1, 5, 2, 6, 3, 7});
  // Within a group, the order of the axes: b before a.
  ReplicaGroups ba = replicaGroups({AxisRef("b"), AxisRef("a")}, mesh);
  CHECK(ba.num_groups == 1);
  CHECK(ba.ids == std::vector<int64_t>{0, 4, 1, 5, 2, 6, 3, 7});
  // b:(2)2 is the minor half of b: groups by (a, b:(1)2).
  ReplicaGroups minor = replicaGroups({AxisRef("b", 2, 2)}, mesh);
  CHECK(minor.num_groups == 4);
  CHECK(minor.ids == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  ReplicaGroups major = replicaGroups({AxisRef("b", 1, 2)}, mesh);
  CHECK(major.ids == std::vector<int64_t>{0, 2, 1, 3, 4, 6, 5, 7});
}

TEST_CASE("replica groups list a mesh's own device ids") {
  const Mesh mesh({{"a", 2}, {"b", 2}}, {3, 2, 1, 0});
  CHECK(replicaGroups({AxisRef("b")}, mesh).ids ==
        std::vector<int64_t>{3, 2, 1, 0});
  CHECK(replicaGroups({AxisRef("a")}, mesh).ids ==
        std::vector<int64_t>{3, 1, 2, 0});
}

TEST_CASE("ordered axis refs cut each axis where the list's sub-axes do") {
  const Mesh mesh = mesh24();
  CHECK(orderedAxisRefs({AxisRef("b")}, mesh) ==
        AxisRefVector{AxisRef("a"), AxisRef("b")});
  CHECK(orderedAxisRefs({AxisRef("b", 2, 2)}, mesh) ==
        AxisRefVector{AxisRef("a"), AxisRef("b", 1, 2), AxisRef("b", 2, 2)});
  CHECK(orderedAxisRefs({AxisRef("b", 1, 2), AxisRef("b", 2, 2)}, mesh) ==
        AxisRefVector{AxisRef("a"), AxisRef("b", 1, 2), AxisRef("b", 2, 2)});
  CHECK(totalAxesSize({AxisRef("a"), AxisRef("b", 2, 2)}, mesh) == 4);
}

TEST_CASE("local shapes divide each sharded dimension") {
  const Mesh mesh = mesh24();
  TensorSharding sharding(
      MeshOrRef::ref("m"),
      {DimensionSharding({AxisRef("b")}, true),
       DimensionSharding({AxisRef("a"), AxisRef("b", 2, 2)}, true),
       DimensionSharding({}, false)});
  CHECK(*localShape({8, 8, 3}, sharding, mesh) ==
        std::vector<int64_t>{2, 2, 3});
  CHECK(*localShape({8, kDynamicSize, 3}, sharding, mesh) ==
        std::vector<int64_t>{2, kDynamicSize, 3});
  CHECK_FALSE(localShape({6, 8, 3}, sharding, mesh));
  CHECK_FALSE(localShape({8, 8}, sharding, mesh));
  TypeContext types;
  Type global = types.rankedTensor({8, 8, 3}, "f32");
  CHECK(localType(types, global, &sharding, &mesh).str() ==
        "tensor<2x2x3xf32>");
  CHECK(localType(types, global, nullptr, &mesh) == global);
  CHECK_FALSE(
      localType(types, types.rankedTensor({6, 8, 3}, "f32"), &sharding, &mesh));
}

}  // namespace
}  // namespace shardkit::partition
