// Which mesh an op propagates in, and what happens to shardings on other
// meshes.
#include "shardkit/factor_propagation/common_mesh.h"

#include <catch2/catch.hpp>

#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::OpCase;
using testing::parseMeshOrDie;
using testing::parseShardingOrDie;
using Strings = std::vector<std::string>;

const char* kAdd = "<([i, j], [i, j])->([i, j]) {i=8, j=8}>";
const std::pair<std::string, std::string> kEmpty = {"empty_mesh", "<[]>"};
const std::pair<std::string, std::string> kAB = {"mesh_ab",
                                                 R"(<["a"=2, "b"=2]>)"};
const std::pair<std::string, std::string> kMaximal = {"maximal_mesh",
                                                      "<[], device_ids=[0]>"};
const std::pair<std::string, std::string> kA3 = {"mesh_a_3", R"(<["a"=3]>)"};
const std::pair<std::string, std::string> kA3Again = {"mesh_a_3_another",
                                                      R"(<["a"=3]>)"};
const std::pair<std::string, std::string> kA6 = {"mesh_a_6", R"(<["a"=6]>)"};

std::optional<std::string> commonMeshName(
    const std::vector<std::pair<std::string, std::string>>& meshes,
    const std::vector<std::string>& shardings) {
  MeshTable table;
  for (const auto& [name, text] : meshes) table.add(name, parseMeshOrDie(text));
  auto parsed = testing::parseShardings(shardings);
  auto ptrs = testing::pointers(parsed);
  absl::StatusOr<std::optional<CommonMesh>> common =
      findCommonMesh(ptrs, {}, table);
  REQUIRE(common.ok());
  if (!*common) return std::nullopt;
  return std::string((*common)->mesh_or_ref.name());
}

TEST_CASE("common mesh: one mesh, or none") {
  CHECK(commonMeshName({kAB}, {"", ""}) == std::nullopt);
  CHECK(commonMeshName({kAB}, {"", "<@mesh_ab, [{?}]>"}) == "mesh_ab");
  CHECK(commonMeshName({kA3, kA6}, {"<@mesh_a_3, [{?}]>",
                                    "<@mesh_a_6, [{?}]>"}) == std::nullopt);
  // Two names for one mesh: the first wins.
  CHECK(commonMeshName({kA3, kA3Again},
                       {"<@mesh_a_3_another, [{?}]>", "<@mesh_a_3, [{?}]>"}) ==
        "mesh_a_3_another");
}

TEST_CASE("common mesh: an empty mesh gives way, a maximal one doesn't") {
  CHECK(commonMeshName({kEmpty, kAB}, {"<@empty_mesh, [{?}]>",
                                       "<@mesh_ab, [{?}]>"}) == "mesh_ab");
  CHECK(commonMeshName({kEmpty, kAB}, {"<@mesh_ab, [{?}]>",
                                       "<@empty_mesh, [{?}]>"}) == "mesh_ab");
  CHECK(commonMeshName({kMaximal, kAB},
                       {"<@mesh_ab, [{?}]>", "<@maximal_mesh, []>"}) ==
        std::nullopt);
  CHECK(commonMeshName({kEmpty, kA3, kA6},
                       {"<@mesh_a_3, [{?}]>", "<@mesh_a_6, [{?}]>",
                        "<@empty_mesh, [{?}]>"}) == std::nullopt);
}

TEST_CASE("common mesh: device order") {
  const std::pair<std::string, std::string> reversed = {
      "reversed", R"(<["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>)"};
  std::vector<std::string> shardings = {"<@reversed, [{?}]>",
                                        "<@mesh_ab, [{?}]>"};
  CHECK(commonMeshName({reversed, kAB}, shardings) == std::nullopt);
  MeshTable table;
  table.add(reversed.first, parseMeshOrDie(reversed.second));
  table.add(kAB.first, parseMeshOrDie(kAB.second));
  auto parsed = testing::parseShardings(shardings);
  auto ptrs = testing::pointers(parsed);
  auto common = findCommonMesh(ptrs, {}, table, /*ignore_device_ids=*/true);
  REQUIRE(common.ok());
  REQUIRE(common->has_value());
  CHECK((*common)->mesh_or_ref.name() == "mesh_ab");  // The default order.
}

TEST_CASE("common mesh: an unknown mesh name is an error") {
  MeshTable table;
  TensorSharding sharding = parseShardingOrDie("<@nowhere, [{?}]>");
  const TensorSharding* ptrs[] = {&sharding};
  absl::StatusOr<std::optional<CommonMesh>> common =
      findCommonMesh(ptrs, {}, table);
  REQUIRE_FALSE(common.ok());
  CHECK(common.status().message().find("@nowhere") != absl::string_view::npos);
}

TEST_CASE("propagation replaces an empty mesh and respects its closed dims") {
  OpCase op({kEmpty, kAB}, kAdd,
            {R"(<@mesh_ab, [{"a"}, {"b"}]>)", "<@empty_mesh, [{?}, {}]>"},
            {""});
  CHECK(op.run() == Strings{R"(<@mesh_ab, [{"a"}, {"b"}]>)",
                            R"(<@mesh_ab, [{"a", ?}, {}]>)",
                            R"(<@mesh_ab, [{"a", ?}, {?}]>)"});
  op.options.strategy = &aggressiveFactorPropagation();
  op.options.is_elementwise = true;
  CHECK(op.run()[2] == R"(<@mesh_ab, [{"a", ?}, {"b", ?}]>)");
}

TEST_CASE("propagation into shardings on the empty mesh") {
  OpCase op({kEmpty, kAB}, kAdd, {R"(<@mesh_ab, [{"a"}, {"b"}]>)", ""},
            {"<@empty_mesh, [{?}, {?}]>"});
  CHECK(op.run()[2] == R"(<@mesh_ab, [{"a", ?}, {"b", ?}]>)");
  op.results = {"<@empty_mesh, [{?}, {}]>"};
  CHECK(op.run()[2] == R"(<@mesh_ab, [{"a", ?}, {}]>)");
  op.results = {"<@empty_mesh, [{}, {}]>"};
  CHECK(op.run()[2] == "<@empty_mesh, [{}, {}]>");
}

TEST_CASE("no propagation without a common mesh") {
  SECTION("a maximal mesh") {
    OpCase op({kMaximal, kAB}, kAdd,
              {R"(<@mesh_ab, [{"a"}, {"b"}]>)", "<@maximal_mesh, []>"}, {""});
    CHECK(op.run()[2] == "");
  }
  SECTION("two different meshes") {
    OpCase op({kA3, kA6}, kAdd,
              {R"(<@mesh_a_3, [{"a"}, {?}]>)", "<@mesh_a_6, [{?}, {?}]>"},
              {""});
    CHECK(op.run()[2] == "");
  }
  SECTION("two names of one mesh is fine") {
    OpCase op({kA3, kA3Again}, kAdd,
              {R"(<@mesh_a_3, [{"a"}, {?}]>)",
               R"(<@mesh_a_3_another, [{"a"}, {?}]>)"},
              {""});
    CHECK(op.run()[2] == R"(<@mesh_a_3, [{"a", ?}, {?}]>)");
  }
}

TEST_CASE("an inline mesh is kept in new shardings") {
  OpCase op({}, kAdd, {R"(<mesh<["a"=2]>, [{"a"}, {}]>)", ""}, {""});
  CHECK(op.run()[2] == R"(<mesh<["a"=2]>, [{"a", ?}, {?}]>)");
}

}  // namespace
}  // namespace shardkit
