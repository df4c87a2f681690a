#include <catch2/catch.hpp>

#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::axisRef;
using testing::parseMeshOrDie;
using testing::resolved;
using testing::resolvedList;

TEST_CASE("resolving axis refs against a mesh") {
  Mesh mesh = parseMeshOrDie(R"(<["x"=4, "y"=6, "one"=1]>)");
  ResolvedAxis y = resolved(R"("y")", mesh);
  CHECK(y.axis == 1);
  CHECK(y.full);
  CHECK(y.size == 6);
  ResolvedAxis sub = resolved(R"("y":(2)3)", mesh);
  CHECK_FALSE(sub.full);
  CHECK(sub.pre_size == 2);
  CHECK(sub.size == 3);
  CHECK(toAxisRef(sub, mesh) == axisRef(R"("y":(2)3)"));
  CHECK(toAxisRef(y, mesh) == axisRef(R"("y")"));
  // A sub-axis spanning the whole axis is the full axis.
  CHECK(resolved(R"("x":(1)4)", mesh) == resolved(R"("x")", mesh));

  absl::StatusOr<ResolvedAxis> unknown = resolveAxis(axisRef(R"("z")"), mesh);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().message().find("\"z\"") != absl::string_view::npos);
  CHECK_FALSE(resolveAxis(axisRef(R"("x":(2)4)"), mesh).ok());
  CHECK_FALSE(resolveAxis(axisRef(R"("y":(4)2)"), mesh).ok());
}

TEST_CASE("containment, overlap and prefixes") {
  Mesh mesh = parseMeshOrDie(R"(<["x"=16, "one"=1]>)");
  auto r = [&](const char* text) { return resolved(text, mesh); };
  CHECK(contains(r(R"("x")"), r(R"("x":(2)4)")));
  CHECK_FALSE(contains(r(R"("x":(2)4)"), r(R"("x")")));
  CHECK(contains(r(R"("x":(1)8)"), r(R"("x":(2)4)")));
  CHECK(overlaps(r(R"("x":(1)4)"), r(R"("x":(2)4)")));
  CHECK_FALSE(overlaps(r(R"("x":(1)2)"), r(R"("x":(2)4)")));
  // A full axis of size 1 has an empty interval but still overlaps itself.
  CHECK(overlaps(r(R"("one")"), r(R"("one")")));
  CHECK(isPrefixOf(r(R"("x":(1)4)"), r(R"("x")")));
  CHECK_FALSE(isPrefixOf(r(R"("x":(2)4)"), r(R"("x")")));
  CHECK(canMerge(r(R"("x":(1)2)"), r(R"("x":(2)8)")));
  CHECK(merge(r(R"("x":(1)2)"), r(R"("x":(2)8)"), mesh) == r(R"("x")"));
  CHECK(merge(r(R"("x":(2)2)"), r(R"("x":(4)2)"), mesh) == r(R"("x":(2)4)"));
  CHECK_FALSE(canMerge(r(R"("x":(1)2)"), r(R"("x":(4)2)")));
}

TEST_CASE("sub-axes of different splits can't co-exist") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=6, "b"=16]>)");
  auto r = [&](const char* text) { return resolved(text, mesh); };
  CHECK_FALSE(canCoexist(r(R"("a":(1)2)"), r(R"("a":(3)2)")));
  CHECK(canCoexist(r(R"("a":(1)2)"), r(R"("a":(2)3)")));
  CHECK(canCoexist(r(R"("b":(1)4)"), r(R"("b":(2)4)")));
  CHECK(canCoexist(r(R"("b":(1)2)"), r(R"("b":(4)2)")));
  CHECK_FALSE(prefixWithoutOverlap(r(R"("a":(1)2)"), r(R"("a":(3)2)")));
}

TEST_CASE("the prefix of an axis without overlap") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=16, "b"=2]>)");
  auto r = [&](const char* text) { return resolved(text, mesh); };
  CHECK(prefixWithoutOverlap(r(R"("a")"), r(R"("a":(4)2)")) ==
        r(R"("a":(1)4)"));
  CHECK(prefixWithoutOverlap(r(R"("a")"), r(R"("b")")) == r(R"("a")"));
  CHECK_FALSE(prefixWithoutOverlap(r(R"("a":(4)2)"), r(R"("a")")));
  CHECK(prefixWithoutOverlap(
            r(R"("a")"), resolvedList(R"({"b", "a":(8)2, "a":(4)2})", mesh)) ==
        r(R"("a":(1)4)"));
}

TEST_CASE("axis list prefix status") {
  Mesh mesh = parseMeshOrDie(R"(<["a"=4, "b"=2]>)");
  auto l = [&](const char* text) { return resolvedList(text, mesh); };
  CHECK(axisListPrefixStatus(l("{}"), l("{}")) == PrefixStatus::kEqual);
  CHECK(axisListPrefixStatus(l("{}"), l(R"({"a"})")) ==
        PrefixStatus::kStrictPrefix);
  CHECK(axisListPrefixStatus(l(R"({"a", "b"})"), l(R"({"a", "b"})")) ==
        PrefixStatus::kEqual);
  CHECK(axisListPrefixStatus(l(R"({"a":(1)2})"), l(R"({"a", "b"})")) ==
        PrefixStatus::kStrictPrefix);
  CHECK(axisListPrefixStatus(l(R"({"a"})"), l(R"({"a", "b"})")) ==
        PrefixStatus::kStrictPrefix);
  CHECK(axisListPrefixStatus(l(R"({"a", "b"})"), l(R"({"a"})")) ==
        PrefixStatus::kNotAPrefix);
  CHECK(axisListPrefixStatus(l(R"({"b"})"), l(R"({"a", "b"})")) ==
        PrefixStatus::kNotAPrefix);
  CHECK(axisListPrefixStatus(l(R"({"a":(2)2})"), l(R"({"a"})")) ==
        PrefixStatus::kNotAPrefix);
}

}  // namespace
}  // namespace shardkit
