// MeshSet (the use and source sets of mesh inference) and the assignment
// options of the import passes.
#include "src/mpmd/mesh_set.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/support/strings.h"
#include "src/mpmd/assignment_options.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

MeshSet setOf(std::vector<MeshWithOrigins> meshes) {
  MeshSet set = MeshSet::none();
  for (const MeshWithOrigins& mesh : meshes) set.insert(mesh);
  return set;
}

using Names = std::vector<std::string>;

TEST_CASE("an unspecified set is the identity of unite and intersect") {
  MeshSet any;
  CHECK_FALSE(any.specified());
  CHECK(any.size() == -1);
  MeshSet m1 = setOf({{"m1", {"a"}}});
  MeshSet united = any;
  united.unite(m1);
  CHECK(united.meshNames() == Names{"m1"});
  MeshSet intersected = m1;
  intersected.intersect(any);
  CHECK(intersected.meshNames() == Names{"m1"});
  CHECK(MeshSet::none().empty());
  CHECK_FALSE(MeshSet::fromAttr(Attribute()).specified());
  CHECK(MeshSet::useSetFromAttr(Attribute()).empty());
}

TEST_CASE("unite keeps first-added order and merges origins") {
  MeshSet set = setOf({{"m2", {"a"}}, {"m1", {}}});
  set.unite(setOf({{"m1", {"b"}}, {"m3", {"c"}}, {"m2", {"a", "d"}}}));
  CHECK(set.meshNames() == Names{"m2", "m1", "m3"});
  std::vector<MeshWithOrigins> array = set.toArray();
  REQUIRE(array.size() == 3);
  CHECK(array[0].origins == Names{"a", "d"});
  CHECK(array[1].origins == Names{"b"});
}

TEST_CASE("intersect keeps common meshes; a wildcard matches any mesh") {
  MeshSet set = setOf({{"m1", {"a"}}, {"m2", {"b"}}});
  set.intersect(setOf({{"m2", {"c"}}, {"m3", {}}}));
  CHECK(set.meshNames() == Names{"m2"});
  CHECK(set.toArray()[0].origins == Names{"b", "c"});

  MeshSet wild = setOf({{"*", {"w"}}});
  CHECK(wild.hasWildcard());
  CHECK(wild.meshNames().empty());
  CHECK(wild.meshNames(/*include_wildcard=*/true) == Names{"*"});
  wild.intersect(setOf({{"m1", {"a"}}, {"m2", {}}}));
  CHECK(wild.meshNames() == Names{"m1", "m2"});
  CHECK(wild.toArray()[0].origins == Names{"a", "w"});
  CHECK_FALSE(wild.hasWildcard());

  MeshSet plain = setOf({{"m1", {}}, {"m4", {}}});
  plain.intersect(setOf({{"*", {"w"}}}));
  CHECK(plain.meshNames() == Names{"m1", "m4"});
  CHECK(plain.toArray()[1].origins == Names{"w"});
}

TEST_CASE("sets read back from their attribute") {
  MeshSet set = setOf({{"m2", {"x"}}, {"m1", {}}, {"*", {"y"}}});
  MeshSet again = MeshSet::fromAttr(set.toAttr());
  CHECK(again.toArray() == set.toArray());
  CHECK(again.sameMeshes(set));
  CHECK_FALSE(again.sameMeshes(setOf({{"m2", {}}, {"m1", {}}})));
  CHECK_FALSE(static_cast<bool>(MeshSet().toAttr()));
}

TEST_CASE("the prioritized mesh") {
  // Natural name order: m2 before m10.
  CHECK(setOf({{"m10", {}}, {"m2", {}}}).prioritizedMesh() == "m2");
  // Meshes only there for broadcast inputs come last.
  CHECK(setOf({{"m1", {"broadcast_in"}}, {"m3", {"f"}}}).prioritizedMesh() ==
        "m3");
  CHECK(setOf({{"m1", {"broadcast_in"}}}).prioritizedMesh() == "m1");
  // A preferred mesh in the set wins, a wildcard admits any preferred mesh.
  CHECK(setOf({{"m1", {}}, {"m3", {}}}).prioritizedMesh({"m3"}) == "m3");
  CHECK(setOf({{"m1", {}}, {"*", {}}}).prioritizedMesh({"m7"}) == "m7");
  CHECK(setOf({{"m1", {}}}).prioritizedMesh({"m7"}) == "m1");
  CHECK_FALSE(MeshSet::none().prioritizedMesh().has_value());
}

TEST_CASE("user assignments") {
  absl::StatusOr<UserAssignment> parsed =
      parseUserAssignment("f1@m1, f2@m2/3,", "assignment");
  REQUIRE(parsed.ok());
  CHECK(parsed->size() == 2);
  CHECK(parsed->at("f1") == MeshStage{"m1", std::nullopt});
  CHECK(parsed->at("f2") == MeshStage{"m2", 3});
  absl::StatusOr<UserAssignment> no_at =
      parseUserAssignment("f1m1", "assignment");
  REQUIRE_FALSE(no_at.ok());
  CHECK(std::string(no_at.status().message()) ==
        "invalid 'assignment' option: Assignment must contain '@' denoting a "
        "name assigned to a mesh (and stage), got: f1m1");
  absl::StatusOr<UserAssignment> bad_stage =
      parseUserAssignment("f1@m1/x", "assignment");
  REQUIRE_FALSE(bad_stage.ok());
  CHECK(std::string(bad_stage.status().message()).find("stage number: x") !=
        std::string::npos);
  for (std::string_view empty_side : {"@m1", "f@", "f@/2"}) {
    absl::StatusOr<UserAssignment> bad =
        parseUserAssignment(empty_side, "assignment");
    REQUIRE_FALSE(bad.ok());
    CHECK(std::string(bad.status().message()) ==
          strCat("invalid 'assignment' option: Assignment needs a name "
                 "before '@' and a mesh after it, got: ",
                 empty_side));
  }
  // A later entry for a name replaces an earlier one, as in the reference.
  absl::StatusOr<UserAssignment> repeated =
      parseUserAssignment("f@m1,f@m2/1", "assignment");
  REQUIRE(repeated.ok());
  CHECK(repeated->at("f") == MeshStage{"m2", 1});
}

TEST_CASE("indexed assignments and memory kinds") {
  absl::StatusOr<IndexedAssignment> parsed =
      parseIndexedAssignment("0@m1,2@m2#pinned_host", "input-assignment");
  REQUIRE(parsed.ok());
  CHECK(parsed->at(0) == "m1");
  CHECK(parsed->at(2) == "m2#pinned_host");
  CHECK_FALSE(parseIndexedAssignment("a@m1", "input-assignment").ok());
  CHECK_FALSE(parseIndexedAssignment("-1@m1", "input-assignment").ok());
  CHECK_FALSE(parseIndexedAssignment("1m1", "input-assignment").ok());
  CHECK(
      splitMemoryKind("m2#pinned_host") ==
      std::pair<std::string, std::optional<std::string>>{"m2", "pinned_host"});
  CHECK(splitMemoryKind("m2").second == std::nullopt);
}

}  // namespace
}  // namespace shardkit::mpmd::mpmd_internal
