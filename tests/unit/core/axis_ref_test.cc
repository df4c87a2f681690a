#include "shardkit/core/axis_ref.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <vector>

#include "unit/core/value_test_util.h"

namespace shardkit {
namespace {

using testing::checkFormats;
using testing::checkValueSemantics;

AxisRef full(const char* name) { return AxisRef(name); }
AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return AxisRef(name, pre, size);
}

TEST_CASE("SubAxisInfo: value semantics, order and text") {
  checkValueSemantics<SubAxisInfo>({{1, 2}, {2, 1}, {2, 2}, {1, 4}, {4, 2}});
  CHECK(SubAxisInfo{1, 4} < SubAxisInfo{2, 2});
  CHECK(SubAxisInfo{2, 2} < SubAxisInfo{2, 4});
  CHECK_FALSE(SubAxisInfo{2, 4} < SubAxisInfo{2, 4});
  CHECK(SubAxisInfo{2, 4}.nextPreSize() == 8);
  checkFormats(SubAxisInfo{2, 4}, "(2)4");
}

TEST_CASE("AxisRef: value semantics") {
  // A full axis differs from every sub-axis, including one covering it.
  checkValueSemantics<AxisRef>({full("a"), full("b"), sub("a", 1, 2),
                                sub("a", 2, 1), sub("a", 2, 2), sub("b", 1, 2),
                                sub("a", 1, 4)});
  CHECK(AxisRef("a", std::nullopt) == full("a"));
  CHECK(AxisRef("a", SubAxisInfo{2, 2}) == sub("a", 2, 2));
}

TEST_CASE("AxisRef: text") {
  checkFormats(full("x"), R"("x")");
  checkFormats(sub("x", 2, 4), R"("x":(2)4)");
  checkFormats(sub("x y", 1, 2), R"("x y":(1)2)");
}

TEST_CASE("AxisRef: sizes on a mesh") {
  Mesh mesh({{"a", 8}, {"b", 3}});
  CHECK(full("a").size(mesh) == 8);
  CHECK(full("a").preSize() == 1);
  CHECK(full("a").nextPreSize(mesh) == 8);
  CHECK(sub("a", 2, 2).size(mesh) == 2);
  CHECK(sub("a", 2, 2).preSize() == 2);
  CHECK(sub("a", 2, 2).nextPreSize(mesh) == 4);
  CHECK(full("zz").size(mesh) == 0);
  CHECK(full("a").isSubAxis() == false);
  CHECK(sub("a", 1, 2).isSubAxis());
}

TEST_CASE("AxisRef: mesh-independent order") {
  // Name first; a sub-axis before its full axis; sub-axes by (pre, size).
  AxisRefVector axes = {full("b"),      sub("a", 2, 2), full("a"),
                        sub("a", 1, 4), sub("a", 1, 2), sub("b", 4, 2)};
  std::sort(axes.begin(), axes.end());
  CHECK(axes == AxisRefVector{sub("a", 1, 2), sub("a", 1, 4), sub("a", 2, 2),
                              full("a"), sub("b", 4, 2), full("b")});
  CHECK_FALSE(full("a") < full("a"));
  CHECK_FALSE(sub("a", 1, 2) < sub("a", 1, 2));
}

TEST_CASE("contains and strictlyContains") {
  CHECK(contains(full("a"), sub("a", 2, 2)));
  CHECK(contains(sub("a", 1, 8), sub("a", 1, 4)));
  CHECK(contains(sub("a", 2, 16), sub("a", 4, 2)));
  CHECK(contains(full("a"), full("a")));
  CHECK(contains(sub("a", 2, 2), sub("a", 2, 2)));
  CHECK_FALSE(contains(sub("a", 1, 4), sub("a", 2, 4)));
  CHECK_FALSE(contains(sub("a", 2, 4), sub("a", 1, 2)));
  CHECK_FALSE(contains(full("a"), sub("b", 1, 2)));
  // A sub-axis never contains the full axis (even one it would cover).
  CHECK_FALSE(contains(sub("a", 1, 4), full("a")));

  CHECK(strictlyContains(full("a"), sub("a", 2, 2)));
  CHECK(strictlyContains(sub("a", 1, 8), sub("a", 1, 4)));
  CHECK(strictlyContains(sub("a", 2, 16), sub("a", 4, 2)));
  CHECK_FALSE(strictlyContains(full("a"), full("a")));
  CHECK_FALSE(strictlyContains(sub("a", 2, 2), sub("a", 2, 2)));
  CHECK_FALSE(strictlyContains(sub("a", 1, 4), sub("a", 2, 4)));
}

TEST_CASE("overlaps") {
  CHECK(overlaps(full("a"), sub("a", 2, 2)));
  CHECK(overlaps(sub("a", 2, 2), full("a")));
  CHECK(overlaps(sub("a", 2, 2), sub("a", 2, 2)));
  CHECK(overlaps(sub("a", 1, 4), sub("a", 2, 4)));
  CHECK(overlaps(sub("a", 2, 4), sub("a", 1, 4)));
  CHECK(overlaps(sub("a", 1, 4), sub("a", 1, 2)));
  CHECK(overlaps(sub("a", 2, 8), sub("a", 4, 2)));
  CHECK(overlaps(full("a"), full("a")));
  CHECK_FALSE(overlaps(sub("a", 1, 4), sub("a", 4, 2)));
  CHECK_FALSE(overlaps(sub("a", 4, 2), sub("a", 1, 4)));
  CHECK_FALSE(overlaps(sub("a", 1, 2), sub("a", 4, 2)));
  CHECK_FALSE(overlaps(sub("a", 1, 4), sub("b", 2, 4)));
  CHECK_FALSE(overlaps(full("a"), full("b")));
}

TEST_CASE("isPrefixOf and isStrictPrefixOf") {
  CHECK(isPrefixOf(sub("a", 1, 2), full("a")));
  CHECK(isPrefixOf(sub("a", 2, 2), sub("a", 2, 4)));
  CHECK(isPrefixOf(full("a"), full("a")));
  CHECK(isPrefixOf(sub("a", 2, 4), sub("a", 2, 4)));
  CHECK_FALSE(isPrefixOf(sub("a", 1, 4), sub("a", 1, 2)));
  CHECK_FALSE(isPrefixOf(sub("a", 1, 4), sub("a", 2, 8)));
  CHECK_FALSE(isPrefixOf(sub("a", 1, 2), full("b")));
  CHECK_FALSE(isPrefixOf(full("a"), sub("a", 1, 2)));

  CHECK(isStrictPrefixOf(sub("a", 1, 2), full("a")));
  CHECK(isStrictPrefixOf(sub("a", 2, 2), sub("a", 2, 4)));
  CHECK_FALSE(isStrictPrefixOf(full("a"), full("a")));
  CHECK_FALSE(isStrictPrefixOf(sub("a", 2, 4), sub("a", 2, 4)));
  CHECK_FALSE(isStrictPrefixOf(sub("a", 1, 4), sub("a", 2, 8)));
}

TEST_CASE("isSuffixOf needs the mesh for full axes") {
  Mesh mesh({{"a", 8}, {"b", 4}});
  CHECK(isSuffixOf(sub("a", 4, 2), full("a"), mesh));
  CHECK(isSuffixOf(sub("a", 2, 4), full("a"), mesh));
  CHECK(isSuffixOf(full("a"), full("a"), mesh));
  CHECK(isSuffixOf(sub("a", 2, 2), sub("a", 1, 4), mesh));
  CHECK_FALSE(isSuffixOf(sub("a", 1, 2), full("a"), mesh));
  CHECK_FALSE(isSuffixOf(sub("a", 2, 2), full("a"), mesh));
  CHECK_FALSE(isSuffixOf(sub("b", 2, 2), full("a"), mesh));
  CHECK_FALSE(isSuffixOf(full("a"), sub("a", 4, 2), mesh));
}

TEST_CASE("canMerge and merge") {
  Mesh mesh({{"a", 16}, {"b", 8}, {"c", 8}, {"d", 8}});
  CHECK(canMerge(sub("a", 2, 4), sub("a", 8, 2)));
  CHECK(canMerge(sub("b", 1, 2), sub("b", 2, 4)));
  CHECK_FALSE(canMerge(sub("c", 1, 2), sub("c", 4, 2)));
  CHECK_FALSE(canMerge(sub("d", 2, 4), sub("d", 1, 2)));
  CHECK_FALSE(canMerge(sub("a", 1, 2), sub("b", 2, 2)));
  CHECK_FALSE(canMerge(full("a"), sub("a", 16, 2)));
  CHECK_FALSE(canMerge(sub("a", 1, 8), full("a")));

  CHECK(merge(sub("a", 2, 4), sub("a", 8, 2), mesh) == sub("a", 2, 8));
  // The merge covers all of "b": the full axis.
  CHECK(merge(sub("b", 1, 2), sub("b", 2, 4), mesh) == full("b"));
  CHECK(merge(sub("c", 2, 2), sub("c", 4, 2), mesh) == sub("c", 2, 4));
}

TEST_CASE("prefixWithoutOverlap") {
  using Opt = std::optional<AxisRef>;
  CHECK(prefixWithoutOverlap(full("a"), sub("a", 2, 2)) == Opt(sub("a", 1, 2)));
  CHECK(prefixWithoutOverlap(sub("a", 2, 2), sub("a", 2, 2)) == std::nullopt);
  CHECK(prefixWithoutOverlap(sub("a", 1, 4), sub("a", 2, 4)) ==
        Opt(sub("a", 1, 2)));
  CHECK(prefixWithoutOverlap(sub("a", 2, 4), sub("a", 1, 4)) == std::nullopt);
  CHECK(prefixWithoutOverlap(sub("a", 1, 4), sub("a", 1, 2)) == std::nullopt);
  CHECK(prefixWithoutOverlap(sub("a", 2, 8), sub("a", 4, 2)) ==
        Opt(sub("a", 2, 2)));
  CHECK(prefixWithoutOverlap(sub("a", 1, 4), sub("a", 4, 2)) ==
        Opt(sub("a", 1, 4)));
  CHECK(prefixWithoutOverlap(sub("a", 1, 2), sub("a", 4, 2)) ==
        Opt(sub("a", 1, 2)));
  CHECK(prefixWithoutOverlap(sub("a", 1, 4), sub("b", 2, 4)) ==
        Opt(sub("a", 1, 4)));
  CHECK(prefixWithoutOverlap(full("a"), full("a")) == std::nullopt);
  CHECK(prefixWithoutOverlap(full("a"), full("b")) == Opt(full("a")));
}

TEST_CASE("greatestCommonPrefix") {
  using Opt = std::optional<AxisRef>;
  CHECK(greatestCommonPrefix(full("a"), full("a")) == Opt(full("a")));
  CHECK(greatestCommonPrefix(full("a"), full("b")) == std::nullopt);
  CHECK(greatestCommonPrefix(sub("a", 1, 2), sub("a", 2, 4)) == std::nullopt);
  CHECK(greatestCommonPrefix(sub("a", 1, 4), full("a")) == Opt(sub("a", 1, 4)));
  CHECK(greatestCommonPrefix(full("a"), sub("a", 1, 4)) == Opt(sub("a", 1, 4)));
  CHECK(greatestCommonPrefix(sub("a", 1, 2), sub("a", 1, 4)) ==
        Opt(sub("a", 1, 2)));
  CHECK(greatestCommonPrefix(sub("a", 2, 8), sub("a", 2, 4)) ==
        Opt(sub("a", 2, 4)));
}

TEST_CASE("makeAxisRef picks the full axis when it covers it") {
  Mesh mesh({{"a", 8}});
  CHECK(makeAxisRef("a", 1, 8, mesh) == full("a"));
  CHECK(makeAxisRef("a", 1, 4, mesh) == sub("a", 1, 4));
  CHECK(makeAxisRef("a", 2, 4, mesh) == sub("a", 2, 4));
  // Unknown axes have size 0 in the mesh, so this stays a sub-axis.
  CHECK(makeAxisRef("b", 1, 8, mesh) == sub("b", 1, 8));
}

TEST_CASE("MeshAxisLess orders by the mesh's axis order") {
  Mesh mesh({{"c", 8}, {"a", 4}, {"b", 2}});
  MeshAxisLess less(mesh);
  AxisRefVector axes = {full("b"),      full("zz"),     sub("a", 2, 2),
                        full("c"),      full("a"),      sub("c", 1, 2),
                        sub("a", 1, 2), sub("c", 2, 4), full("yy")};
  std::sort(axes.begin(), axes.end(), less);
  CHECK(axes == AxisRefVector{sub("c", 1, 2), sub("c", 2, 4), full("c"),
                              sub("a", 1, 2), sub("a", 2, 2), full("a"),
                              full("b"), full("yy"), full("zz")});
  // Irreflexive on equal refs.
  CHECK_FALSE(less(full("a"), full("a")));
  CHECK_FALSE(less(sub("a", 1, 2), sub("a", 1, 2)));
  // The mesh order wins over the name order.
  CHECK(less(full("c"), sub("a", 1, 2)));
  CHECK_FALSE(less(sub("a", 1, 2), full("c")));
}

}  // namespace
}  // namespace shardkit
