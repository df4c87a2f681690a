#include "shardkit/core/collective_params.h"

#include <catch2/catch.hpp>
#include <optional>

#include "shardkit/core/propagation_direction.h"
#include "unit/core/value_test_util.h"

namespace shardkit {
namespace {

using testing::checkFormats;
using testing::checkValueSemantics;

AxisRef full(const char* name) { return AxisRef(name); }

TEST_CASE("ListOfAxisRefLists: value semantics and text") {
  ListOfAxisRefLists gather(
      {AxisRefList(), AxisRefList({full("x"), AxisRef("y", 1, 2)})});
  checkValueSemantics<ListOfAxisRefLists>(
      {ListOfAxisRefLists(), gather, ListOfAxisRefLists({AxisRefList()}),
       ListOfAxisRefLists({AxisRefList(), AxisRefList()})});
  checkFormats(gather, R"([{}, {"x", "y":(1)2}])");
  checkFormats(ListOfAxisRefLists(), "[]");
}

TEST_CASE("ManualAxes: value semantics, lookup and text") {
  ManualAxes axes({"a", "b"});
  checkValueSemantics<ManualAxes>(
      {ManualAxes(), axes, ManualAxes({"b", "a"}), ManualAxes({"a"})});
  CHECK(axes.contains("a"));
  CHECK(axes.contains("b"));
  CHECK_FALSE(axes.contains("c"));
  CHECK_FALSE(ManualAxes().contains("a"));
  checkFormats(axes, R"({"a", "b"})");
  checkFormats(ManualAxes(), "{}");
}

TEST_CASE("AllToAllParam(List): value semantics and text") {
  AllToAllParam p{{full("b")}, 0, 2};
  AllToAllParam q{{full("c"), full("d")}, 1, 3};
  checkValueSemantics<AllToAllParam>({p, q, AllToAllParam{{full("b")}, 2, 0},
                                      AllToAllParam{{full("b")}, 0, 1},
                                      AllToAllParam{{}, 0, 2}});
  checkValueSemantics<AllToAllParamList>(
      {AllToAllParamList(), AllToAllParamList({p}), AllToAllParamList({p, q}),
       AllToAllParamList({q, p})});
  checkFormats(p, R"({"b"}: 0->2)");
  checkFormats(AllToAllParamList({p, q}), R"([{"b"}: 0->2, {"c", "d"}: 1->3])");
  checkFormats(AllToAllParamList(), "[]");
}

TEST_CASE("PropagationDirection: text, parsing and algebra") {
  using D = PropagationDirection;
  checkFormats(D::kNone, "NONE");
  checkFormats(D::kForward, "FORWARD");
  checkFormats(D::kBackward, "BACKWARD");
  checkFormats(D::kBoth, "BOTH");
  for (D d : {D::kNone, D::kForward, D::kBackward, D::kBoth}) {
    CHECK(propagationDirectionFromString(toString(d)) == d);
  }
  CHECK(propagationDirectionFromString("both") == std::nullopt);
  CHECK(propagationDirectionFromString("") == std::nullopt);

  CHECK(allowsForward(D::kForward));
  CHECK(allowsForward(D::kBoth));
  CHECK_FALSE(allowsForward(D::kBackward));
  CHECK_FALSE(allowsForward(D::kNone));
  CHECK(allowsBackward(D::kBackward));
  CHECK(allowsBackward(D::kBoth));
  CHECK_FALSE(allowsBackward(D::kForward));
  CHECK(intersect(D::kBoth, D::kForward) == D::kForward);
  CHECK(intersect(D::kForward, D::kBackward) == D::kNone);
  CHECK(intersect(D::kBoth, D::kBoth) == D::kBoth);
  CHECK(intersect(D::kNone, D::kBoth) == D::kNone);
}

}  // namespace
}  // namespace shardkit
