// Device groups along mesh axes: membership, the order within a group (the
// devices' coordinate along the axes, first axis major), sub-axes and
// explicit device ids.
#include "shardkit/sim/device_groups.h"

#include <catch2/catch.hpp>

#include "tests/unit/sim/sim_test_util.h"

namespace shardkit {
namespace {

using testing::axisList;
using testing::mesh;
using Groups = std::vector<std::vector<int64_t>>;

Groups groups(std::string_view axes, std::string_view mesh_text) {
  AxisRefList list = axisList(axes);
  absl::StatusOr<Groups> g = collectiveGroups(
      AxisRefVector(list.begin(), list.end()), mesh(mesh_text));
  INFO(g.status().message());
  REQUIRE(g.ok());
  return *g;
}

TEST_CASE("collective groups follow the axes' order") {
  constexpr std::string_view kXY = R"(<["x"=2, "y"=2]>)";
  CHECK(groups(R"({"y"})", kXY) == Groups{{0, 1}, {2, 3}});
  CHECK(groups(R"({"x"})", kXY) == Groups{{0, 2}, {1, 3}});
  CHECK(groups(R"({"x", "y"})", kXY) == Groups{{0, 1, 2, 3}});
  CHECK(groups(R"({"y", "x"})", kXY) == Groups{{0, 2, 1, 3}});
  CHECK(groups("{}", kXY) == Groups{{0}, {1}, {2}, {3}});
}

TEST_CASE("collective groups of sub-axes and explicit device ids") {
  // "x":(1)2 is the major digit of x's coordinate, "x":(2)2 the minor one.
  CHECK(groups(R"({"x":(1)2})", R"(<["x"=4]>)") == Groups{{0, 2}, {1, 3}});
  CHECK(groups(R"({"x":(2)2})", R"(<["x"=4]>)") == Groups{{0, 1}, {2, 3}});
  CHECK(groups(R"({"x"})", R"(<["x"=4], device_ids=[3, 2, 1, 0]>)") ==
        Groups{{3, 2, 1, 0}});
  CHECK(groups(R"({"x":(1)2})", R"(<["x"=4], device_ids=[3, 2, 1, 0]>)") ==
        Groups{{3, 1}, {2, 0}});
}

TEST_CASE("collective groups of axes the mesh does not have are errors") {
  AxisRefList list = axisList(R"({"z"})");
  CHECK_FALSE(collectiveGroups(AxisRefVector(list.begin(), list.end()),
                               mesh(R"(<["x"=2]>)"))
                  .ok());
}

}  // namespace
}  // namespace shardkit
