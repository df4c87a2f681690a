#include "shardkit/core/sharding_math.h"

#include <catch2/catch.hpp>
#include <map>
#include <vector>

namespace shardkit {
namespace {

using Ints = std::vector<int64_t>;

AxisRef full(const char* name) { return AxisRef(name); }
AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return AxisRef(name, pre, size);
}

TensorSharding sharding(std::vector<AxisRefVector> dims) {
  std::vector<DimensionSharding> dim_shardings;
  for (auto& axes : dims) dim_shardings.emplace_back(std::move(axes), true);
  return TensorSharding(MeshOrRef::ref("m"), std::move(dim_shardings));
}

TEST_CASE("shardCounts and localShape") {
  Mesh mesh({{"x", 4}, {"y", 2}, {"z", 8}});
  TensorSharding s = sharding({{full("x"), full("y")}, {}, {sub("z", 2, 4)}});
  CHECK(shardCounts(s, mesh) == Ints{8, 1, 4});
  CHECK(localShape(s, mesh, {16, 5, 8}) == Ints{2, 5, 2});
  // Uneven: rounded up (the last shards are padded).
  CHECK(localShape(s, mesh, {17, 5, 9}) == Ints{3, 5, 3});
  CHECK(localShape(s, mesh, {3, 1, 1}) == Ints{1, 1, 1});
  CHECK(localShape(s, mesh, {0, 0, 0}) == Ints{0, 0, 0});
  // Dynamic dimensions stay dynamic.
  CHECK(localShape(s, mesh, {kDynamicSize, 4, kDynamicSize}) ==
        Ints{kDynamicSize, 4, kDynamicSize});
  CHECK(shardCounts(sharding({}), mesh).empty());
}

TEST_CASE("evenlySharded keeps the prefix that divides each dimension") {
  Mesh mesh({{"x", 8}, {"y", 3}});
  auto even = [&](TensorSharding s, Ints shape) {
    return evenlySharded(s, shape, mesh).dim_shardings;
  };
  // "x" only partly divides 6: its largest dividing sub-axis ends the dim.
  CHECK(even(sharding({{full("x"), full("y")}}), {6})[0].axes ==
        AxisRefVector{sub("x", 1, 2)});
  // "y" divides 6, then "x" only by 2.
  CHECK(even(sharding({{full("y"), full("x")}}), {6})[0].axes ==
        (AxisRefVector{full("y"), sub("x", 1, 2)}));
  // A sub-axis keeps its pre-size; nothing divides 5.
  CHECK(even(sharding({{sub("x", 2, 4)}, {full("x")}}), {6, 5})[0].axes ==
        AxisRefVector{sub("x", 2, 2)});
  CHECK(
      even(sharding({{sub("x", 2, 4)}, {full("y")}}), {6, 5})[1].axes.empty());
  // What divides stays, open dimensions stay open, other axes are kept.
  TensorSharding open = sharding({{full("x")}});
  open.dim_shardings[0].is_closed = false;
  open.replicated_axes = {full("y")};
  TensorSharding kept = evenlySharded(open, Ints{16}, mesh);
  CHECK(kept == open);
}

TEST_CASE("isEvenlySharded says whether evenlySharded would change it") {
  Mesh mesh({{"x", 8}, {"y", 3}});
  auto check = [&](TensorSharding s, Ints shape) {
    bool even = isEvenlySharded(s, shape, mesh);
    CHECK(even == (evenlySharded(s, shape, mesh) == s));
    return even;
  };
  CHECK(check(sharding({{full("y"), full("x")}}), {24}));
  CHECK_FALSE(check(sharding({{full("y"), full("x")}}), {6}));
  CHECK_FALSE(check(sharding({{full("x")}}), {6}));
  // Each axis divides what the ones before it left: 8 * 3 does not divide 12.
  CHECK_FALSE(check(sharding({{full("x"), full("y")}}), {12}));
  CHECK(check(sharding({{sub("x", 2, 4)}, {}}), {4, 5}));
  CHECK_FALSE(check(sharding({{}, {full("y")}}), {4, 5}));
  // A size of 0 is divided by every axis; missing dimensions are not looked
  // at.
  CHECK(check(sharding({{full("x"), full("y")}}), {0}));
  CHECK(check(sharding({{full("x")}, {full("y")}}), {8}));
}

TEST_CASE("meshCoordinates is row-major over the axes") {
  Mesh mesh({{"a", 2}, {"b", 3}, {"c", 4}});
  CHECK(meshCoordinates(mesh, 0) == Ints{0, 0, 0});
  CHECK(meshCoordinates(mesh, 1) == Ints{0, 0, 1});
  CHECK(meshCoordinates(mesh, 4) == Ints{0, 1, 0});
  CHECK(meshCoordinates(mesh, 12) == Ints{1, 0, 0});
  CHECK(meshCoordinates(mesh, 23) == Ints{1, 2, 3});
  CHECK(meshCoordinates(Mesh(), 0).empty());
}

TEST_CASE("shardIndexAt: full axes, major to minor") {
  Mesh mesh({{"x", 2}, {"y", 4}});
  // Dim 0 on ["y", "x"]: index = y * 2 + x.
  TensorSharding s = sharding({{full("y"), full("x")}, {}});
  for (int64_t position = 0; position < 8; ++position) {
    int64_t x = position / 4, y = position % 4;
    CHECK(shardIndexAt(s, mesh, position) == Ints{y * 2 + x, 0});
  }
}

TEST_CASE("shardIndexAt: sub-axes pick digits of the axis coordinate") {
  // "x"=8 reshaped as [2, 2, 2]: (1)2 is the major bit, (2)2 the middle one,
  // (4)2 the minor one; (2)4 the two minor bits.
  Mesh mesh({{"x", 8}});
  for (int64_t c = 0; c < 8; ++c) {
    CHECK(shardIndexAt(sharding({{sub("x", 1, 2)}}), mesh, c) == Ints{c / 4});
    CHECK(shardIndexAt(sharding({{sub("x", 2, 2)}}), mesh, c) ==
          Ints{(c / 2) % 2});
    CHECK(shardIndexAt(sharding({{sub("x", 4, 2)}}), mesh, c) == Ints{c % 2});
    CHECK(shardIndexAt(sharding({{sub("x", 2, 4)}}), mesh, c) == Ints{c % 4});
    // Minor bit major in the dimension: [(4)2, (1)4].
    CHECK(shardIndexAt(sharding({{sub("x", 4, 2), sub("x", 1, 4)}}), mesh, c) ==
          Ints{(c % 2) * 4 + c / 2});
    // Split over two dimensions.
    CHECK(shardIndexAt(sharding({{sub("x", 1, 4)}, {sub("x", 4, 2)}}), mesh,
                       c) == Ints{c / 2, c % 2});
  }
}

TEST_CASE("deviceShards follows the device order and counts replicas") {
  Mesh mesh({{"x", 2}, {"y", 3}}, {5, 4, 3, 2, 1, 0});
  TensorSharding s = sharding({{full("x")}, {}});
  std::vector<DeviceShard> shards = deviceShards(s, mesh);
  REQUIRE(shards.size() == 6);
  std::map<Ints, int> replicas;
  for (size_t position = 0; position < shards.size(); ++position) {
    CHECK(shards[position].device_id == 5 - static_cast<int64_t>(position));
    CHECK(shards[position].shard_index ==
          Ints{static_cast<int64_t>(position) / 3, 0});
    ++replicas[shards[position].shard_index];
  }
  // Every shard is held by the 3 devices along the unused axis "y".
  CHECK(replicas == std::map<Ints, int>{{{0, 0}, 3}, {{1, 0}, 3}});

  // A fully sharded tensor: every device holds a different shard.
  TensorSharding both = sharding({{full("y")}, {full("x")}});
  std::map<Ints, int> distinct;
  for (const DeviceShard& shard : deviceShards(both, mesh)) {
    ++distinct[shard.shard_index];
  }
  CHECK(distinct.size() == 6);

  // The maximal mesh: one device, the whole (rank-0) tensor.
  std::vector<DeviceShard> maximal =
      deviceShards(sharding({}), Mesh::maximal(7));
  REQUIRE(maximal.size() == 1);
  CHECK(maximal[0].device_id == 7);
  CHECK(maximal[0].shard_index.empty());
}

}  // namespace
}  // namespace shardkit
