#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <vector>

#include "shardkit/core/verify.h"
#include "unit/core/verify_test_util.h"

namespace shardkit {
namespace {

Mesh mesh2x2() { return Mesh({{"a", 2}, {"b", 2}}); }

TEST_CASE("verifyMesh: axis sizes") {
  SK_CHECK_VALID(verifyMesh(Mesh({{"a", 1}})));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}, {"b", 0}})),
                   "axis size must be at least 1, got: 0");
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", -3}})),
                   "axis size must be at least 1, got: -3");
  // Sizes are checked before names, as each axis is built before the mesh.
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}, {"a", 0}})),
                   "axis size must be at least 1");
}

TEST_CASE("verifyMesh: duplicate axis names") {
  SK_CHECK_VALID(verifyMesh(Mesh({{"a", 2}, {"b", 2}, {"c", 4}})));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}, {"b", 2}, {"a", 4}})),
                   "duplicate axis name: \"a\"");
  // Past the linear scan's limit (the sorted index finds names): the first
  // name that repeats an earlier one is reported, not the smallest.
  std::vector<MeshAxis> axes;
  for (char c = 'a'; c <= 'p'; ++c) axes.push_back({std::string(1, c), 1});
  axes.push_back({"o", 1});
  axes.push_back({"c", 1});
  SK_CHECK_INVALID(verifyMesh(Mesh(axes)), "duplicate axis name: \"o\"");
  axes.pop_back();
  axes.pop_back();
  SK_CHECK_VALID(verifyMesh(Mesh(axes)));
}

TEST_CASE("verifyMesh: the product of axis sizes must fit in int64") {
  const int64_t big = int64_t{1} << 40;
  SK_CHECK_VALID(verifyMesh(Mesh({{"a", big}})));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", big}, {"b", big}})),
                   "total product of axis sizes overflows int64");
}

TEST_CASE("verifyMesh: empty and maximal meshes") {
  SK_CHECK_VALID(verifyMesh(Mesh()));
  SK_CHECK_VALID(verifyMesh(Mesh::maximal(0)));
  SK_CHECK_VALID(verifyMesh(Mesh::maximal(3)));
  SK_CHECK_INVALID(verifyMesh(Mesh::maximal(-1)),
                   "device id must be non-negative, got: -1");
  SK_CHECK_INVALID(verifyMesh(Mesh({}, {1, 0})),
                   "axes is empty and device_ids has more than one element");
}

TEST_CASE("verifyMesh: device id count") {
  SK_CHECK_VALID(verifyMesh(Mesh({{"a", 2}, {"b", 2}}, {0, 2, 1, 3})));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}, {"b", 2}}, {0, 2, 1, 3, 4, 5})),
                   "total product of axis sizes must match total number of "
                   "device ids, got: 4 != 6");
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}}, {0})),
                   "total product of axis sizes must match total number of "
                   "device ids, got: 2 != 1");
}

TEST_CASE("verifyMesh: device ids are a permutation of iota") {
  SK_CHECK_VALID(verifyMesh(Mesh({{"a", 2}}, {1, 0})));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}}, {1, 1})),
                   "sorted device ids must be iota(product(axes)), got: 1, 1");
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}}, {2, 1})),
                   "sorted device ids must be iota(product(axes)), got: 1, 2");
  // The message lists the ids sorted, whichever fault is met first.
  SK_CHECK_INVALID(
      verifyMesh(Mesh({{"a", 4}}, {3, 0, 2, 2})),
      "sorted device ids must be iota(product(axes)), got: 0, 2, 2, 3");
  SK_CHECK_INVALID(
      verifyMesh(Mesh({{"a", 4}}, {9, 0, 1, 2})),
      "sorted device ids must be iota(product(axes)), got: 0, 1, 2, 9");
  SK_CHECK_VALID(verifyMesh(Mesh({{"a", 2}, {"b", 2}}, {3, 1, 2, 0})));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}}, {-1, 0})),
                   "device id must be non-negative, got: -1");
}

TEST_CASE("verifyMesh: an explicit iota list is not canonical") {
  SK_CHECK_VALID(verifyMesh(mesh2x2()));
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 2}, {"b", 2}}, {0, 1, 2, 3})),
                   "device ids equal to iota(product(axes)) must not be given");
  SK_CHECK_INVALID(verifyMesh(Mesh({{"a", 1}}, {0})),
                   "device ids equal to iota(product(axes))");
}

TEST_CASE("verifyAxisRef: full axes and unknown names") {
  Mesh mesh({{"a", 8}, {"b", 2}});
  SK_CHECK_VALID(verifyAxisRef(AxisRef("a"), mesh));
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("c"), mesh),
                   "unknown axis name: \"c\"");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("c", 2, 2), mesh),
                   "unknown axis name: \"c\"");
}

TEST_CASE("verifyAxisRef: sub-axis constraints") {
  Mesh mesh({{"a", 8}, {"b", 2}});
  SK_CHECK_VALID(verifyAxisRef(AxisRef("a", 1, 2), mesh));
  SK_CHECK_VALID(verifyAxisRef(AxisRef("a", 2, 4), mesh));
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", -1, 2), mesh),
                   "sub-axis pre-size must be at least 1: \"a\":(-1)2");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", 0, 2), mesh),
                   "sub-axis pre-size must be at least 1: \"a\":(0)2");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", 2, 1), mesh),
                   "sub-axis sizes must be greater than 1: \"a\":(2)1");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", 3, 2), mesh),
                   "sub-axis next pre-size 6 doesn't divide the size of the "
                   "full axis 8: \"a\":(3)2");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", 2, 3), mesh),
                   "sub-axis next pre-size 6 doesn't divide the size of the "
                   "full axis 8: \"a\":(2)3");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", 4, 4), mesh),
                   "sub-axis next pre-size 16 doesn't divide");
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", 1, 8), mesh),
                   "sub-axis size is equal to the full axis size: \"a\":(1)8");
  const int64_t huge = std::numeric_limits<int64_t>::max() / 2;
  SK_CHECK_INVALID(verifyAxisRef(AxisRef("a", huge, 4), mesh),
                   "sub-axis next pre-size overflows int64");
}

TEST_CASE("verifyAxisRefList: duplicates and overlaps") {
  Mesh mesh({{"a", 8}, {"b", 4}});
  SK_CHECK_VALID(verifyAxisRefList({AxisRef("b"), AxisRef("a")}, mesh));
  SK_CHECK_VALID(verifyAxisRefList({}, mesh));
  SK_CHECK_INVALID(verifyAxisRefList({AxisRef("a"), AxisRef("a")}, mesh),
                   "duplicate axis ref: \"a\"");
  SK_CHECK_INVALID(
      verifyAxisRefList({AxisRef("a", 2, 2), AxisRef("a", 2, 2)}, mesh),
      "duplicate axis ref: \"a\":(2)2");
  SK_CHECK_INVALID(verifyAxisRefList({AxisRef("a"), AxisRef("a", 2, 2)}, mesh),
                   "both sub-axis and full-axis are used for axis name: \"a\"");
  SK_CHECK_INVALID(
      verifyAxisRefList({AxisRef("a", 2, 4), AxisRef("a", 1, 4)}, mesh),
      "overlapping sub-axes: \"a\":(1)4, \"a\":(2)4");
  SK_CHECK_INVALID(verifyAxisRefList({AxisRef("b"), AxisRef("z")}, mesh),
                   "unknown axis name: \"z\"");
}

TEST_CASE("verifyAxisRefList: adjacent consecutive sub-axes must be merged") {
  Mesh mesh({{"a", 8}, {"b", 4}});
  // Consecutive but not adjacent, or adjacent in minor-to-major order: fine.
  SK_CHECK_VALID(verifyAxisRefList(
      {AxisRef("a", 1, 2), AxisRef("b"), AxisRef("a", 2, 2)}, mesh));
  SK_CHECK_VALID(
      verifyAxisRefList({AxisRef("a", 2, 2), AxisRef("a", 1, 2)}, mesh));
  SK_CHECK_INVALID(
      verifyAxisRefList({AxisRef("a", 2, 2), AxisRef("a", 4, 2)}, mesh),
      "two consecutive sub-axes can be merged: \"a\":(2)2, \"a\":(4)2");
}

TEST_CASE("verifyAxisRefList: every sub-axis is checked") {
  Mesh mesh({{"a", 8}, {"b", 4}});
  SK_CHECK_INVALID(
      verifyAxisRefList({AxisRef("b", 1, 2), AxisRef("a", 1, 8)}, mesh),
      "sub-axis size is equal to the full axis size: \"a\":(1)8");
}

TEST_CASE("verifyManualAxes") {
  Mesh mesh({{"a", 2}, {"b", 2}});
  SK_CHECK_VALID(verifyManualAxes(ManualAxes({"a", "b"}), mesh));
  SK_CHECK_VALID(verifyManualAxes(ManualAxes(), mesh));
  SK_CHECK_INVALID(verifyManualAxes(ManualAxes({"a", "c"}), mesh),
                   "unknown manual axis: \"c\"");
  SK_CHECK_INVALID(verifyManualAxes(ManualAxes({"b", "b"}), mesh),
                   "duplicate manual axis: \"b\"");
}

}  // namespace
}  // namespace shardkit
