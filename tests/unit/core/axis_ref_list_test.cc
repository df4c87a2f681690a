#include "shardkit/core/axis_ref_list.h"

#include <catch2/catch.hpp>
#include <vector>

#include "unit/core/value_test_util.h"

namespace shardkit {
namespace {

using testing::checkFormats;
using testing::checkValueSemantics;
using Axes = AxisRefVector;

AxisRef full(const char* name) { return AxisRef(name); }
AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return AxisRef(name, pre, size);
}

TEST_CASE("AxisRefList: value semantics and text") {
  checkValueSemantics<AxisRefList>({
      AxisRefList(),
      AxisRefList({full("a")}),
      AxisRefList({full("b")}),
      AxisRefList({full("a"), full("b")}),
      AxisRefList({full("b"), full("a")}),
      AxisRefList({sub("a", 1, 2)}),
  });
  AxisRefList list({full("a"), sub("b", 1, 2)});
  CHECK(list.size() == 2);
  CHECK_FALSE(list.empty());
  CHECK(AxisRefList().empty());
  checkFormats(list, R"({"a", "b":(1)2})");
  checkFormats(AxisRefList(), "{}");
  CHECK(axisListToString(list.items) == R"({"a", "b":(1)2})");
}

TEST_CASE("axesProduct and overlapsAny") {
  Mesh mesh({{"a", 8}, {"b", 3}});
  CHECK(axesProduct({}, mesh) == 1);
  CHECK(axesProduct(Axes{full("a"), full("b")}, mesh) == 24);
  CHECK(axesProduct(Axes{sub("a", 2, 2), full("b")}, mesh) == 6);

  Axes axes = {sub("a", 1, 2), full("b")};
  CHECK(overlapsAny(axes, sub("a", 1, 4)));
  CHECK(overlapsAny(axes, full("a")));
  CHECK(overlapsAny(axes, full("b")));
  CHECK_FALSE(overlapsAny(axes, sub("a", 2, 4)));
  CHECK_FALSE(overlapsAny(axes, full("c")));
  CHECK_FALSE(overlapsAny({}, full("a")));
}

TEST_CASE("isAxisListPrefixOf") {
  Axes axes = {full("a"), sub("b", 1, 4), full("c")};
  CHECK(isAxisListPrefixOf({}, axes));
  CHECK(isAxisListPrefixOf({}, {}));
  CHECK(isAxisListPrefixOf(Axes{full("a")}, axes));
  CHECK(isAxisListPrefixOf(Axes{full("a"), sub("b", 1, 2)}, axes));
  CHECK(isAxisListPrefixOf(Axes{full("a"), sub("b", 1, 4)}, axes));
  CHECK(isAxisListPrefixOf(axes, axes));
  CHECK(isAxisListPrefixOf(Axes{sub("a", 1, 2)}, axes));
  // Only the last element may be a part of the corresponding axis.
  CHECK_FALSE(isAxisListPrefixOf(Axes{sub("a", 1, 2), sub("b", 1, 4)}, axes));
  CHECK_FALSE(isAxisListPrefixOf(Axes{full("a"), sub("b", 2, 2)}, axes));
  CHECK_FALSE(isAxisListPrefixOf(Axes{full("b")}, axes));
  Axes longer = axes;
  longer.push_back(full("d"));
  CHECK_FALSE(isAxisListPrefixOf(longer, axes));
}

TEST_CASE("mergeAdjacentSubAxes keeps order and merges runs") {
  Mesh mesh({{"a", 16}, {"b", 4}});
  Axes axes = {sub("a", 1, 2), sub("a", 2, 2), sub("a", 4, 2), full("b")};
  mergeAdjacentSubAxes(axes, mesh);
  CHECK(axes == Axes{sub("a", 1, 8), full("b")});

  // A run covering the whole axis becomes the full axis.
  axes = {sub("b", 1, 2), sub("b", 2, 2)};
  mergeAdjacentSubAxes(axes, mesh);
  CHECK(axes == Axes{full("b")});

  // Consecutive in reverse order, or separated, stay apart.
  axes = {sub("a", 2, 2), sub("a", 1, 2), full("b"), sub("a", 4, 2)};
  Axes unchanged = axes;
  mergeAdjacentSubAxes(axes, mesh);
  CHECK(axes == unchanged);

  axes = {};
  mergeAdjacentSubAxes(axes, mesh);
  CHECK(axes.empty());
  axes = {sub("a", 1, 2)};
  mergeAdjacentSubAxes(axes, mesh);
  CHECK(axes == Axes{sub("a", 1, 2)});
}

TEST_CASE("sortAndMergeAxes: the canonical order of replicated axes") {
  Mesh mesh({{"c", 4}, {"a", 8}, {"b", 2}});
  Axes axes = {full("b"), sub("a", 4, 2), full("c"), sub("a", 1, 4)};
  sortAndMergeAxes(axes, mesh);
  CHECK(axes == Axes{full("c"), full("a"), full("b")});

  axes = {sub("a", 4, 2), sub("c", 2, 2), sub("a", 1, 2)};
  sortAndMergeAxes(axes, mesh);
  CHECK(axes == Axes{sub("c", 2, 2), sub("a", 1, 2), sub("a", 4, 2)});
}

TEST_CASE("removeAxisListSuffix") {
  Mesh mesh({{"x", 4}, {"y", 2}, {"z", 8}});
  Axes axes = {full("x"), full("y"), full("z")};
  REQUIRE(removeAxisListSuffix(axes, Axes{full("y"), full("z")}, mesh));
  CHECK(axes == Axes{full("x")});

  axes = {full("x")};
  REQUIRE(removeAxisListSuffix(axes, Axes{sub("x", 2, 2)}, mesh));
  CHECK(axes == Axes{sub("x", 1, 2)});

  // The most major removed axis may split the last kept one.
  axes = {full("y"), full("z")};
  REQUIRE(removeAxisListSuffix(axes, Axes{sub("z", 4, 2)}, mesh));
  CHECK(axes == Axes{full("y"), sub("z", 1, 4)});
  axes = {full("x"), full("z")};
  REQUIRE(removeAxisListSuffix(axes, Axes{sub("z", 2, 4)}, mesh));
  CHECK(axes == Axes{full("x"), sub("z", 1, 2)});

  axes = {full("x"), full("y")};
  REQUIRE(removeAxisListSuffix(axes, {}, mesh));
  CHECK(axes == Axes{full("x"), full("y")});
  REQUIRE(removeAxisListSuffix(axes, Axes{full("x"), full("y")}, mesh));
  CHECK(axes.empty());

  // Not a suffix.
  axes = {full("x"), full("y")};
  CHECK_FALSE(removeAxisListSuffix(axes, Axes{full("x")}, mesh));
  axes = {full("x")};
  CHECK_FALSE(removeAxisListSuffix(axes, Axes{sub("x", 1, 2)}, mesh));
  axes = {full("x")};
  CHECK_FALSE(removeAxisListSuffix(axes, Axes{full("y"), full("x")}, mesh));
  // A split is only allowed for the most major removed axis.
  axes = {full("z"), full("y")};
  CHECK_FALSE(
      removeAxisListSuffix(axes, Axes{sub("z", 4, 2), sub("y", 1, 2)}, mesh));
}

TEST_CASE("appendAxes merges the junction") {
  Mesh mesh({{"x", 8}, {"y", 2}});
  Axes axes = {full("y"), sub("x", 1, 2)};
  appendAxes(axes, Axes{sub("x", 2, 2), sub("x", 4, 2)}, mesh);
  CHECK(axes == Axes{full("y"), full("x")});

  axes = {sub("x", 2, 2)};
  appendAxes(axes, Axes{full("y"), sub("x", 4, 2)}, mesh);
  CHECK(axes == Axes{sub("x", 2, 2), full("y"), sub("x", 4, 2)});

  axes = {};
  appendAxes(axes, Axes{sub("x", 1, 2), sub("x", 2, 2)}, mesh);
  CHECK(axes == Axes{sub("x", 1, 4)});
}

TEST_CASE("complementAxes lists the unused parts in mesh order") {
  Mesh mesh({{"x", 8}, {"y", 2}, {"z", 4}});
  CHECK(complementAxes({}, mesh) == Axes{full("x"), full("y"), full("z")});
  CHECK(complementAxes(Axes{full("y")}, mesh) == Axes{full("x"), full("z")});
  CHECK(complementAxes(Axes{sub("x", 2, 2)}, mesh) ==
        Axes{sub("x", 1, 2), sub("x", 4, 2), full("y"), full("z")});
  CHECK(complementAxes(Axes{sub("x", 1, 2), sub("x", 4, 2)}, mesh) ==
        Axes{sub("x", 2, 2), full("y"), full("z")});
  CHECK(complementAxes(Axes{full("z"), sub("x", 1, 4), full("y")}, mesh) ==
        Axes{sub("x", 4, 2)});
  CHECK(complementAxes(Axes{full("x"), full("y"), full("z")}, mesh).empty());
  // Refs to axes the mesh does not have are ignored.
  CHECK(complementAxes(Axes{full("w")}, Mesh({{"x", 2}})) == Axes{full("x")});
}

}  // namespace
}  // namespace shardkit
