// The mpmd attributes and the mesh tensor type: reading, canonical text,
// values.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/text/parser_base.h"

namespace shardkit::mpmd {
namespace {

std::string canonical(std::string_view text) {
  size_t open = text.find('<');
  std::string name(text.substr(1, open - 1));
  ParserBase p(text.substr(open));
  absl::StatusOr<std::string> result = parseAttributeText(p, name);
  if (!result.ok()) return "error: " + std::string(result.status().message());
  return *result;
}

TEST_CASE("mpmd attributes are re-spelled canonically") {
  CHECK(canonical(
            "#mpmd.topology<<\"m1\":<[\"x\"=2]>>,<\"m2\" : <[\"y\"=4]>>>") ==
        "#mpmd.topology<<\"m1\" : <[\"x\"=2]>>, <\"m2\" : <[\"y\"=4]>>>");
  CHECK(canonical("#mpmd.user_origin<\"f\"(0)>") == "#mpmd.user_origin<\"f\">");
  CHECK(canonical("#mpmd.user_origin<\"f\"(2)>") ==
        "#mpmd.user_origin<\"f\"(2)>");
  CHECK(canonical("#mpmd.reduction<max>") == "#mpmd.reduction<max>");
  CHECK(canonical("#mpmd.meshes_with_origins<\"m3\"[\"a\",\"b\"], \"m1\">") ==
        "#mpmd.meshes_with_origins<\"m3\"[\"a\", \"b\"], \"m1\">");
  CHECK(canonical("#mpmd.meshes_with_origins<>") ==
        "#mpmd.meshes_with_origins<>");
  CHECK(canonical("#mpmd.named_mesh<\"m\": <[\"x\"=2], device_ids=[1, 0]>>") ==
        "#mpmd.named_mesh<\"m\" : <[\"x\"=2], device_ids=[1, 0]>>");
}

TEST_CASE("malformed mpmd attributes are errors") {
  CHECK(canonical("#mpmd.topology<>") ==
        "error: TopologyAttr must have at least one mesh.");
  CHECK(canonical("#mpmd.reduction<sum>")
            .starts_with("error: expected reduction kind"));
  CHECK(canonical("#mpmd.topology<<\"m1\" <[\"x\"=2]>>>")
            .starts_with("error: expected ':'"));
  CHECK(canonical("#mpmd.unknown<1>")
            .starts_with("error: unknown mpmd attribute"));
}

TEST_CASE("attribute values round-trip through their text") {
  Topology topology{{{"a", Mesh({{"x", 2}})}, {"b", Mesh({{"y", 1}})}}};
  CHECK(topologyOf(topologyAttr(topology)) == topology);
  CHECK(topology.find("b") != nullptr);
  CHECK(topology.find("c") == nullptr);
  UserOrigin origin{"stage", 3};
  CHECK(userOriginOf(userOriginAttr(origin)) == origin);
  CHECK(reductionOf(reductionAttr(ReductionType::kOr)) == ReductionType::kOr);
  std::vector<MeshWithOrigins> sets = {{"m2", {"x", "y"}}, {"m1", {}}};
  CHECK(meshesWithOriginsOf(meshesWithOriginsAttr(sets)) == sets);
  // Attributes of another kind are not read as these.
  CHECK(!topologyOf(reductionAttr(ReductionType::kAdd)));
  CHECK(!reductionOf(Attribute::string("add")));
}

TEST_CASE("a topology is homogeneous up to axes of size 1") {
  Topology same{{{"a", Mesh({{"x", 2}, {"y", 4}})},
                 {"b", Mesh({{"w", 1}, {"x", 2}, {"y", 4}})}}};
  CHECK(same.isHomogeneous());
  Topology different{{{"a", Mesh({{"x", 2}})}, {"b", Mesh({{"x", 4}})}}};
  CHECK(!different.isHomogeneous());
}

TEST_CASE("mesh tensor types are read and spelled canonically") {
  CHECK(
      canonicalTypeText("!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>>").value() ==
      "!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>>");
  CHECK(canonicalTypeText("!mpmd.mesh_tensor<\"m1\", tensor<4x?xf32>, "
                          "sharding = <@mesh, [{\"x\", ?}, {?}]>, "
                          "memory_kind = \"device\">")
            .value() ==
        "!mpmd.mesh_tensor<\"m1\", tensor<4x?xf32>, sharding=<@mesh, "
        "[{\"x\", ?}, {?}]>, memory_kind=\"device\">");
  CHECK(canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor<f32>, "
                          "memory_kind=\"pinned_host\">")
            .value() ==
        "!mpmd.mesh_tensor<\"m\", tensor<f32>, memory_kind=\"pinned_host\">");
  CHECK(!canonicalTypeText("!mpmd.mesh_tensor<\"m\">").ok());
  CHECK(!canonicalTypeText("!mpmd.mesh_tensor<m, tensor<f32>>").ok());
  CHECK(!canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor<*xf32>>").ok());
  // memory_kind before sharding is not the type's syntax.
  CHECK(!canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor<f32>, "
                           "memory_kind=\"device\", sharding=<@m, []>>")
             .ok());
  CHECK(!canonicalTypeText("!mpmd.other<1>").ok());
  // The element type: no dimension-like or spaced text (found by fuzzing).
  CHECK(
      canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor< 4xf32 >>").value() ==
      "!mpmd.mesh_tensor<\"m\", tensor<4xf32>>");
  CHECK(!canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor<4!?x8xf32>>").ok());
  CHECK(!canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor<4xf 32>>").ok());
  CHECK(canonicalTypeText("!mpmd.mesh_tensor<\"m\", tensor<2xcomplex<f32>>>")
            .ok());
}

TEST_CASE("mesh tensor values") {
  TypeContext types;
  Type tensor = types.rankedTensor({4, 8}, "f32");
  MeshTensorType type = MeshTensorType::fullyReplicated("m1", tensor);
  Type as_type = type.toType(types);
  CHECK(isMeshTensor(as_type));
  CHECK(!isMeshTensor(tensor));
  CHECK(meshNameOf(as_type) == "m1");
  CHECK(MeshTensorType::of(as_type) == type);
  CHECK(type.globalType(types) == tensor);
  CHECK(type.isFullyReplicated());
  TensorSharding sharding;
  sharding.mesh = MeshOrRef::ref("mesh");
  sharding.dim_shardings.resize(2);
  sharding.dim_shardings[0].axes.push_back(AxisRef("x"));
  MeshTensorType sharded = type.withSharding(&sharding);
  CHECK(!sharded.isFullyReplicated());
  CHECK(verifyForMesh(sharded, Mesh({{"x", 2}})).ok());
  // 4 is not divisible by 8.
  CHECK(!verifyForMesh(sharded, Mesh({{"x", 8}})).ok());
  CHECK(!verifyForMesh(sharded, Mesh({{"y", 2}})).ok());
  MeshTensorType host = type;
  host.memory_kind = "pinned_host";
  CHECK(host.isOnHost());
}

TEST_CASE("mesh names order numerically") {
  CHECK(meshNameLess("m2", "m10"));
  CHECK(!meshNameLess("m10", "m2"));
  CHECK(meshNameLess("m1", "m2"));
  CHECK(meshNameLess("a", "b"));
  CHECK(meshNameLess("m", "m1"));
  CHECK(!meshNameLess("m1", "m1"));
  CHECK(meshNameLess("m01x", "m1y"));
}

}  // namespace
}  // namespace shardkit::mpmd
