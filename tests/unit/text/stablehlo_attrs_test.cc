// Dialect attribute texts (dialect_attr_text.h) and the StableHLO attributes
// read into plain structs (stablehlo_attrs.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/text/dialect_attr_text.h"
#include "shardkit/text/stablehlo_attr_text.h"

namespace shardkit {
namespace {

using Ints = std::vector<int64_t>;

TEST_CASE("a dialect attribute splits into its name and fields") {
  std::string_view text =
      " #stablehlo.replica_group_mesh_axes<mesh=#stablehlo.mesh<axes = "
      "[#stablehlo.mesh_axis<name = \"a,b\", size = 4>]>,axes = [] > ";
  std::optional<DialectAttrText> attr = splitDialectAttr(text);
  REQUIRE(attr);
  CHECK(attr->name == "stablehlo.replica_group_mesh_axes");
  std::optional<std::vector<DialectAttrField>> fields =
      splitDialectAttrFields(attr->body);
  REQUIRE(fields);
  REQUIRE(fields->size() == 2);
  CHECK((*fields)[0].key == "mesh");
  CHECK((*fields)[0].value ==
        "#stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = \"a,b\", size = "
        "4>]>");
  CHECK((*fields)[1].key == "axes");
  CHECK((*fields)[1].value == "[]");
  // Values are views into the text.
  CHECK((*fields)[0].value.data() == text.data() + text.find("#stablehlo.m"));

  std::optional<DialectAttrText> stripped = splitDialectAttr("<k = 1>");
  REQUIRE(stripped);
  CHECK(stripped->name.empty());
  CHECK(stripped->body == "k = 1");
}

TEST_CASE("text that is not one dialect attribute is rejected") {
  CHECK_FALSE(splitDialectAttr("#a.b"));
  CHECK_FALSE(splitDialectAttr("#a<x> y"));
  CHECK_FALSE(splitDialectAttr("#a<x> <y>"));
  CHECK_FALSE(splitDialectAttr("#a<(x>"));
  CHECK_FALSE(splitDialectAttr("#<x>"));
  CHECK_FALSE(splitDialectAttrFields("k = 1, j"));
  CHECK_FALSE(splitDialectAttrFields("\"k=1\""));
  CHECK_FALSE(splitDialectAttrFields("k ="));
  CHECK(splitDialectAttrFields(" ")->empty());
}

TEST_CASE("integer lists read with any spacing") {
  CHECK(parseIntListText("[1, -2,3 ]") == Ints{1, -2, 3});
  CHECK(parseIntListText(" [ ] ") == Ints{});
  CHECK_FALSE(parseIntListText("[1, ]"));
  CHECK_FALSE(parseIntListText("[1, x]"));
  CHECK_FALSE(parseIntListText("1, 2"));
  CHECK_FALSE(parseIntListText("[1] [2]"));
}

TEST_CASE("dot dimension numbers read and print") {
  std::optional<DotDimensionNumbers> dims = parseDotDimensionNumbersAttr(
      "#stablehlo.dot<rhs_contracting_dimensions=[1],lhs_batching_dimensions "
      "= [ 0 ], rhs_batching_dimensions = [0], lhs_contracting_dimensions = "
      "[2]>");
  REQUIRE(dims);
  CHECK(*dims == DotDimensionNumbers{{0}, {0}, {2}, {1}});
  CHECK(printDotDimensionNumbersAttr(*dims) ==
        "#stablehlo.dot<lhs_batching_dimensions = [0], "
        "rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], "
        "rhs_contracting_dimensions = [1]>");
  // Empty lists are omitted.
  CHECK(printDotDimensionNumbersAttr({{}, {}, {1}, {0}}) ==
        "#stablehlo.dot<lhs_contracting_dimensions = [1], "
        "rhs_contracting_dimensions = [0]>");
  CHECK(parseDotDimensionNumbersAttr("#stablehlo.dot<>") ==
        DotDimensionNumbers{});
  // Another attribute, an unknown or repeated field, a malformed list.
  CHECK_FALSE(parseDotDimensionNumbersAttr("#stablehlo.gather<>"));
  CHECK_FALSE(parseDotDimensionNumbersAttr("#stablehlo.dot<lhs_dims = [1]>"));
  CHECK_FALSE(parseDotDimensionNumbersAttr(
      "#stablehlo.dot<lhs_contracting_dimensions = [1], "
      "lhs_contracting_dimensions = [2]>"));
  CHECK_FALSE(parseDotDimensionNumbersAttr(
      "#stablehlo.dot<lhs_contracting_dimensions = [a]>"));
}

TEST_CASE("gather and scatter dimension numbers read") {
  std::optional<GatherDimensionNumbers> gather =
      parseGatherDimensionNumbersAttr(
          "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
          "start_index_map = [0],index_vector_dim=1>");
  REQUIRE(gather);
  CHECK(*gather == GatherDimensionNumbers{{1}, {0}, {}, {}, {0}, 1});
  CHECK_FALSE(parseGatherDimensionNumbersAttr(
      "#stablehlo.gather<index_vector_dim = x>"));

  std::optional<ScatterDimensionNumbers> scatter =
      parseScatterDimensionNumbersAttr(
          "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims "
          "= [0], input_batching_dims = [2], scatter_indices_batching_dims = "
          "[0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>");
  REQUIRE(scatter);
  CHECK(*scatter == ScatterDimensionNumbers{{1}, {0}, {2}, {0}, {0}, 2});
}

TEST_CASE("conv dimension numbers read with any spacing") {
  ConvDimensionNumbers nhwc;
  nhwc.input_batch = 0;
  nhwc.input_feature = 3;
  nhwc.input_spatial = {1, 2};
  nhwc.kernel_input_feature = 2;
  nhwc.kernel_output_feature = 3;
  nhwc.kernel_spatial = {0, 1};
  nhwc.output_batch = 0;
  nhwc.output_feature = 3;
  nhwc.output_spatial = {1, 2};
  constexpr std::string_view kCanonical =
      "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]";
  CHECK(parseConvDimensionNumbers(kCanonical) == nhwc);
  CHECK(parseConvDimensionNumbers(
            " [b,0,1,f] x [ 0, 1, i, o ] -> [b, 0, 1, f] ") == nhwc);
  CHECK(printConvDimensionNumbers(nhwc) == kCanonical);
  CHECK(parseConvDimensionNumbersAttr(
            "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>") ==
        nhwc);
  CHECK(printConvDimensionNumbersAttr(nhwc) ==
        "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
  // Spatial dims out of order read in order of their index.
  std::optional<ConvDimensionNumbers> swapped =
      parseConvDimensionNumbers("[b, 1, 0, f]x[0, 1, i, o]->[b, 0, 1, f]");
  REQUIRE(swapped);
  CHECK(swapped->input_spatial == Ints{2, 1});
  // Every dimension is named once; the separators are required.
  CHECK_FALSE(parseConvDimensionNumbers("[b, b, f]x[i, o]->[b, f]"));
  CHECK_FALSE(
      parseConvDimensionNumbers("[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]"));
  CHECK_FALSE(parseConvDimensionNumbers("[b, 2, f]x[0, i, o]->[b, 0, f]"));
  CHECK_FALSE(parseConvDimensionNumbers("[b, 0, f][0, i, o]->[b, 0, f]"));
  CHECK_FALSE(parseConvDimensionNumbers("[b, 0, f]x[0, i, o]->[b, 0, f] x"));
  CHECK_FALSE(parseConvDimensionNumbers("[b, 0, f]x[0, i, o]->[b, 0, f"));
}

TEST_CASE("a stablehlo mesh reads its axes with any spacing") {
  absl::StatusOr<Mesh> mesh = parseStablehloMeshAxes(
      "#stablehlo.mesh<axes=[<name = \"x\", size = 2>, "
      "#stablehlo.mesh_axis<size=4,name=\"y\\\"z\">], device_ids=dense<[1, "
      "0]> : tensor<2xi64>>");
  REQUIRE(mesh.ok());
  CHECK(mesh->axes == std::vector<MeshAxis>{{"x", 2}, {"y\"z", 4}});
  CHECK(mesh->device_ids.empty());  // not carried over
  CHECK(parseStablehloMeshAxes("#stablehlo.mesh<axes = []>")->axes.empty());

  auto error = [](std::string_view text) {
    absl::StatusOr<Mesh> m = parseStablehloMeshAxes(text);
    return m.ok() ? std::string("<ok>") : std::string(m.status().message());
  };
  CHECK_THAT(error("#stablehlo.mesh<axes = [<name = \"x\", size = two>]>"),
             Catch::Contains("the size must be an integer"));
  CHECK_THAT(error("#stablehlo.mesh<axes = [<name = x, size = 2>]>"),
             Catch::Contains("the name must be a string"));
  CHECK_THAT(error("#stablehlo.mesh<axes = [<size = 2>]>"),
             Catch::Contains("expected a name and a size"));
  CHECK_THAT(error("#stablehlo.mesh<axes = [<name \"x\", size = 2>]>"),
             Catch::Contains("expected #stablehlo.mesh_axis<key = value"));
  CHECK_THAT(error("#stablehlo.mesh<devices = []>"),
             Catch::Contains("unexpected field 'devices'"));
  CHECK_THAT(error("#sdy.mesh<[\"x\"=2]>"),
             Catch::Contains("expected #stablehlo.mesh<key = value, ...>"));
}

}  // namespace
}  // namespace shardkit

namespace shardkit {
namespace {

TEST_CASE("printStablehloMesh writes axes, then explicit device ids") {
  CHECK(
      printStablehloMesh(Mesh({{"x", 2}, {"y", 4}})) ==
      R"(#stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "y", size = 4>]>)");
  CHECK(
      printStablehloMesh(Mesh({{"x", 2}}, {1, 0})) ==
      R"(#stablehlo.mesh<axes=[<name = "x", size = 2>], device_ids=dense<[1, 0]> : tensor<2xi64>>)");
  CHECK(printStablehloMesh(Mesh::maximal(3)) ==
        "#stablehlo.mesh<axes=[], device_ids=dense<3> : tensor<1xi64>>");
  // What is printed reads back as the same axes.
  absl::StatusOr<Mesh> back =
      parseStablehloMeshAxes(printStablehloMesh(Mesh({{"a", 8}})));
  REQUIRE(back.ok());
  CHECK(back->axes == std::vector<MeshAxis>{{"a", 8}});
}

}  // namespace
}  // namespace shardkit
