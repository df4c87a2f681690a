// -sdy-lift-inlined-meshes and -sdy-manual-axes-cleanup on parsed modules.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/import_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::message;
using import_testing::onlyOp;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

// `name = mesh` of every sdy.mesh op, in order.
std::vector<std::string> meshes(Module& module) {
  std::vector<std::string> result;
  for (Op op : module.body()) {
    if (op.name() != "sdy.mesh") continue;
    result.push_back(strCat(*op.attr("sym_name").asString(), " = ",
                            toString(*op.attr("mesh").as<Mesh>())));
  }
  return result;
}

TEST_CASE("lift-inlined-meshes names new meshes and reuses equal ones") {
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @mesh_0 = <["x"=4]>
sdy.mesh @copy = <["x"=2]>
func.func @mesh_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["y"=2]>, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["z"=2]>, [{"z"}]>]>} : tensor<8xf32>
  %1 = sdy.sharding_constraint %0 <@copy, [{"x"}]> : tensor<8xf32>
  %2 = sdy.sharding_constraint %1 <mesh<["x"=2]>, [{}]> : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <mesh<["y"=2]>, [{}]> : tensor<8xf32>
  return %3 : tensor<8xf32>
}
)");
  requireOk(liftInlinedMeshes(*module));
  // @copy is gone; new meshes follow the existing ones, in order of first
  // use; the uniquing suffix keeps counting past names already taken
  // (@mesh_0 by a mesh, @mesh_1 by the function).
  CHECK(meshes(*module) ==
        std::vector<std::string>{"mesh = <[\"x\"=2]>", "mesh_0 = <[\"x\"=4]>",
                                 "mesh_2 = <[\"y\"=2]>",
                                 "maximal_mesh_3 = <[], device_ids=[3]>",
                                 "mesh_3 = <[\"z\"=2]>"});
  std::vector<Op> constraints = opsNamed(*module, "sdy.sharding_constraint");
  REQUIRE(constraints.size() == 3);
  CHECK(shardingText(constraints[0], "sharding") ==
        "#sdy.sharding<@mesh, [{\"x\"}]>");
  CHECK(shardingText(constraints[1], "sharding") ==
        "#sdy.sharding<@mesh, [{}]>");
  CHECK(shardingText(constraints[2], "sharding") ==
        "#sdy.sharding<@mesh_2, [{}]>");
  CHECK(shardingText(onlyOp(*module, "stablehlo.negate"), "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh_3, [{\"z\"}]>]>");
  FuncOp func(module->functions().front());
  CHECK(toString(func.argAttr(0, "sdy.sharding")) ==
        "#sdy.sharding<@mesh_2, [{\"y\"}]>");
}

TEST_CASE("lift-inlined-meshes creates many meshes while it walks the ops") {
  // Each op has its own inlined mesh: lifting it creates an sdy.mesh op
  // while the walk is between ops, and the module's op storage grows
  // several times over (an op's attributes must not be held across it).
  std::string body;
  for (int i = 0; i < 40; ++i) {
    body +=
        strCat("  %", i + 1, " = stablehlo.negate %", i,
               " {sdy.sharding = #sdy.sharding_per_value<[<mesh<[\"a\"=", i + 2,
               "]>, [{\"a\"}]>]>} : tensor<8xf32>\n");
  }
  auto module =
      parse(strCat("func.func @f(%0: tensor<8xf32>) -> tensor<8xf32> {\n", body,
                   "  return %40 : tensor<8xf32>\n}\n"));
  requireOk(liftInlinedMeshes(*module));
  std::vector<std::string> lifted = meshes(*module);
  REQUIRE(lifted.size() == 40);
  CHECK(lifted[0] == "mesh = <[\"a\"=2]>");
  CHECK(lifted[39] == "mesh_38 = <[\"a\"=41]>");
  std::vector<Op> ops = opsNamed(*module, "stablehlo.negate");
  REQUIRE(ops.size() == 40);
  CHECK(shardingText(ops[0], "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>");
  CHECK(shardingText(ops[39], "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh_38, [{\"a\"}]>]>");
}

TEST_CASE("lift-inlined-meshes describes every mesh as a stablehlo mesh") {
  auto module = parse(R"(
sdy.mesh @m = <["x"=2, "y"=3], device_ids=[5, 4, 3, 2, 1, 0]>
sdy.mesh @one = <[], device_ids=[7]>
)");
  requireOk(liftInlinedMeshes(*module));
  std::vector<Op> ops = opsNamed(*module, "sdy.mesh");
  REQUIRE(ops.size() == 2);
  CHECK(toString(ops[0].attr("stablehlo.mesh")) ==
        "{axes = [{name = \"x\", size = 2 : i64}, {name = \"y\", size = 3 : "
        "i64}], "
        "device_ids = dense<[5, 4, 3, 2, 1, 0]> : tensor<6xi64>}");
  CHECK(toString(ops[1].attr("stablehlo.mesh")) ==
        "{axes = [], device_ids = dense<7> : tensor<1xi64>}");
}

TEST_CASE("lift-inlined-meshes rejects a malformed stablehlo mesh") {
  auto module = parse(R"(
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "z", size = four>]>, axes = []>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  absl::Status status = liftInlinedMeshes(*module);
  REQUIRE(!status.ok());
  CHECK_THAT(message(status), Catch::StartsWith("test.mlir:3:"));
  CHECK_THAT(message(status), Catch::Contains("malformed stablehlo mesh"));
}

TEST_CASE("lift-inlined-meshes reads an inlined mesh with any spacing") {
  auto module = parse(R"(
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<axes=[#stablehlo.axis_ref<name="z">],mesh=#stablehlo.mesh<axes=[#stablehlo.mesh_axis<size=4,name="z">]>>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.all_reduce"(%0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {replica_groups = #stablehlo.replica_group_mesh_axes<  mesh =
      #stablehlo.mesh< axes = [ < name = "z" , size = 4 > ] , device_ids = dense<[3, 2, 1, 0]> : tensor<4xi64> > , axes = [ ] >} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "stablehlo.all_to_all"(%1) {concat_dimension = 0 : i64, split_count = 1 : i64, split_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #sdy.mesh< [ "y" = 2 ] >, axes = []>} : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
)");
  requireOk(liftInlinedMeshes(*module));
  // Both stablehlo meshes have the axis "z" of size 4 (device ids are not
  // carried over): one mesh op serves them.
  CHECK(meshes(*module) ==
        std::vector<std::string>{"mesh = <[\"z\"=4]>", "mesh_0 = <[\"y\"=2]>"});
  // Only the mesh is replaced; the rest of the text stays as it was read.
  CHECK(toString(
            onlyOp(*module, "stablehlo.all_gather").attr("replica_groups")) ==
        "#stablehlo.replica_group_mesh_axes<axes=[#stablehlo.axis_ref<name="
        "\"z\">],mesh=@mesh>");
  CHECK(toString(
            onlyOp(*module, "stablehlo.all_reduce").attr("replica_groups")) ==
        "#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = []>");
  CHECK(toString(
            onlyOp(*module, "stablehlo.all_to_all").attr("replica_groups")) ==
        "#stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = []>");
}

constexpr std::string_view kManual = R"(
sdy.mesh @mesh = <["c"=2, "a"=4, "b"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a":(1)2, ?}]>] out_shardings=[<@mesh, [{"c"}], replicated={"b"}>] manual_axes={"b", "a", "c"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.concatenate %arg1, %arg1, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %2 = stablehlo.slice %1 [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    sdy.return %2 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";

TEST_CASE("manual-axes-cleanup sorts manual axes and replicates unused ones") {
  auto module = parse(kManual);
  requireOk(cleanupManualAxes(*module));
  Op computation = onlyOp(*module, "sdy.manual_computation");
  CHECK(toString(computation.attr("manual_axes")) ==
        "#sdy<manual_axes{\"c\", \"a\", \"b\"}>");
  CHECK(shardingText(computation, "in_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\":(1)2, ?}], "
        "replicated={\"c\", \"a\":(2)2, \"b\"}>]>");
  CHECK(shardingText(computation, "out_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"c\"}], replicated={\"a\", "
        "\"b\"}>]>");
  // Idempotent.
  std::string once = printModule(*module);
  requireOk(cleanupManualAxes(*module));
  CHECK(printModule(*module) == once);
}

TEST_CASE(
    "manual-axes-cleanup binds a sharding it changes to the common mesh") {
  auto module = parse(R"(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}], replicated={"b"}>] out_shardings=[<mesh<["a"=2, "b"=2]>, [{"a"}]>] manual_axes={"a", "b"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  requireOk(cleanupManualAxes(*module));
  Op computation = onlyOp(*module, "sdy.manual_computation");
  // The in_sharding already uses both axes and keeps its form; the
  // out_sharding gains "b" and moves from its inlined mesh to @mesh.
  CHECK(shardingText(computation, "in_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\"}], replicated={\"b\"}>]>");
  CHECK(shardingText(computation, "out_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\"}], replicated={\"b\"}>]>");
}

TEST_CASE("manual-axes-cleanup errors on manual axes without shardings") {
  auto module = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    sdy.return
  } : () -> ()
  return
}
)");
  absl::Status status = cleanupManualAxes(*module);
  REQUIRE(!status.ok());
  CHECK_THAT(
      message(status),
      Catch::StartsWith("test.mlir:4:3: error: 'sdy.manual_computation' op "
                        "has manual_axes when there are no in/out shardings"));
}

}  // namespace
}  // namespace shardkit
