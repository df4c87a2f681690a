// The padded shape of -sdy-pad-for-divisibility: each sharded dimension
// that its shard count does not divide is rounded up to the next multiple.
#include <catch2/catch.hpp>
#include <vector>

#include "src/partition/pad_for_divisibility.h"

namespace shardkit::partition {
namespace {

// ["a"=3, "b"=4]: twelve devices.
Mesh mesh34() { return Mesh({{"a", 3}, {"b", 4}}); }

TensorSharding sharded(std::vector<AxisRefVector> dims) {
  std::vector<DimensionSharding> out;
  for (AxisRefVector& axes : dims) {
    out.push_back(DimensionSharding(std::move(axes), true));
  }
  return TensorSharding(MeshOrRef::ref("m"), std::move(out));
}

TEST_CASE("a dimension its shard count does not divide rounds up") {
  const Mesh mesh = mesh34();
  const TensorSharding s = sharded({{AxisRef("a")}, {}});
  CHECK(divisiblePaddedShape({7, 5}, &s, &mesh) == std::vector<int64_t>{9, 5});
  CHECK(divisiblePaddedShape({9, 5}, &s, &mesh) == std::vector<int64_t>{9, 5});
}

TEST_CASE("the shard count of a dimension is the product of its axes") {
  const Mesh mesh = mesh34();
  const TensorSharding s = sharded({{AxisRef("a"), AxisRef("b")}, {}});
  CHECK(divisiblePaddedShape({7, 1}, &s, &mesh) == std::vector<int64_t>{12, 1});
  // A sub-axis counts its own size: "b":(2)2 is 2.
  const TensorSharding t = sharded({{}, {AxisRef("b", 2, 2)}});
  CHECK(divisiblePaddedShape({7, 3}, &t, &mesh) == std::vector<int64_t>{7, 4});
}

TEST_CASE(
    "dynamic dims, a missing sharding or mesh and a rank mismatch "
    "leave the shape") {
  const Mesh mesh = mesh34();
  const TensorSharding s = sharded({{AxisRef("a")}});
  CHECK(divisiblePaddedShape({kDynamicSize}, &s, &mesh) ==
        std::vector<int64_t>{kDynamicSize});
  CHECK(divisiblePaddedShape({7}, nullptr, &mesh) == std::vector<int64_t>{7});
  CHECK(divisiblePaddedShape({7}, &s, nullptr) == std::vector<int64_t>{7});
  CHECK(divisiblePaddedShape({7, 7}, &s, &mesh) == std::vector<int64_t>{7, 7});
}

}  // namespace
}  // namespace shardkit::partition
