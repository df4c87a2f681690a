// Size arithmetic that cannot overflow, and mesh questions about meshes too
// large to enumerate.
#include "shardkit/support/checked_math.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <vector>

#include "shardkit/core/mesh.h"

namespace shardkit {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST_CASE("checked and saturating products of sizes") {
  int64_t out = 0;
  CHECK(checkedMul(int64_t{1} << 31, int64_t{1} << 31, out));
  CHECK(out == int64_t{1} << 62);
  CHECK_FALSE(checkedMul(int64_t{1} << 32, int64_t{1} << 31, out));
  CHECK(saturatingMul(3, 4) == 12);
  CHECK(saturatingMul(kMax, 2) == kMax);
  CHECK(saturatingMul(kMax, 0) == 0);
  CHECK(checkedProduct(std::vector<int64_t>{2, 3, 4}) == 24);
  CHECK(checkedProduct(std::vector<int64_t>{}) == 1);
  CHECK_FALSE(checkedProduct(std::vector<int64_t>{kMax, 2}).has_value());
}

TEST_CASE("a mesh too large to enumerate is compared without its device list") {
  Mesh huge({{"a", int64_t{1} << 40}});
  Mesh same({{"b", int64_t{1} << 40}});
  Mesh other({{"a", int64_t{1} << 41}});
  CHECK(huge.sameDeviceOrder(same));
  CHECK_FALSE(huge.sameDeviceOrder(other));
  CHECK_FALSE(huge.sameDevicesAndAxes(same));
  Mesh listed({{"x", 4}}, {0, 1, 2, 3});
  Mesh reversed({{"x", 4}}, {3, 2, 1, 0});
  CHECK(listed.sameDeviceOrder(Mesh({{"y", 2}, {"z", 2}})));
  CHECK_FALSE(reversed.sameDeviceOrder(Mesh({{"x", 4}})));
  // An unverified mesh whose size overflows saturates instead.
  CHECK(Mesh({{"a", kMax}, {"b", kMax}}).totalSize() == kMax);
}

TEST_CASE("axes of a mesh with many axes are found by name") {
  std::vector<MeshAxis> axes;
  for (int i = 0; i < 1000; ++i) axes.push_back({"a" + std::to_string(i), 1});
  axes.push_back({"a7", 2});  // a duplicate name: the first one wins
  Mesh mesh(axes);
  CHECK(mesh.axisIndex("a0") == 0);
  CHECK(mesh.axisIndex("a999") == 999);
  CHECK(mesh.axisIndex("a7") == 7);
  CHECK(mesh.axisIndex("b") == -1);
  CHECK(mesh.axisSize("a7") == 1);
  // A copy builds its own index; a changed copy is indexed again.
  Mesh copy = mesh;
  CHECK(copy.axisIndex("a500") == 500);
  copy.axes.push_back({"b", 4});
  CHECK(copy.axisIndex("b") == 1001);
  copy.axes[3].name = "renamed";
  CHECK(copy.axisIndex("a3") == -1);
  CHECK(copy.axisIndex("renamed") == 3);
  Mesh small({{"x", 2}, {"y", 2}});
  CHECK(small.axisIndex("y") == 1);
  // Assigned a mesh of as many axes with other names, an indexed mesh finds
  // the new names and none of the old ones; so does the moved-to mesh.
  std::vector<MeshAxis> other_axes;
  for (int i = 0; i < 1001; ++i) {
    other_axes.push_back({"o" + std::to_string(i), 1});
  }
  Mesh assigned = mesh;
  CHECK(assigned.axisIndex("a9") == 9);
  assigned = Mesh(other_axes);
  CHECK(assigned.axisIndex("o1000") == 1000);
  CHECK(assigned.axisIndex("a9") == -1);
  Mesh moved = std::move(assigned);
  CHECK(moved.axisIndex("o17") == 17);
  copy = moved;
  CHECK(copy.axisIndex("o3") == 3);
  CHECK(copy.axisIndex("renamed") == -1);
}

}  // namespace
}  // namespace shardkit
