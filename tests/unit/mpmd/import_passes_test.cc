// The import passes on small programs: named computations onto meshes,
// transfers, simplification, and the whole import pipeline on two stages.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/support/strings.h"
#include "tests/unit/mpmd/mpmd_test_util.h"

namespace shardkit::mpmd {
namespace {

using testing::count;
using testing::has;
using testing::kTwoMeshes;
using testing::runPass;

// Two stages: x·w1 then tanh on one mesh, ·w2 on another, a meshless add.
std::string twoStages() {
  return strCat(
      "func.func @main(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: "
      "tensor<8x8xf32>) -> tensor<4x8xf32> attributes {",
      kTwoMeshes,
      "} {\n"
      "  %h = mpmd.named_computation<\"stage1\"> (%x, %w1) (%a: "
      "tensor<4x8xf32>, %b: tensor<8x8xf32>) {\n"
      "    %0 = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> "
      "tensor<4x8xf32>\n"
      "    %1 = stablehlo.tanh %0 : tensor<4x8xf32>\n"
      "    mpmd.return %1 : tensor<4x8xf32>\n"
      "  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>\n"
      "  %y = mpmd.named_computation<\"stage2\"> (%h, %w2) (%a: "
      "tensor<4x8xf32>, %b: tensor<8x8xf32>) {\n"
      "    %0 = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> "
      "tensor<4x8xf32>\n"
      "    mpmd.return %0 : tensor<4x8xf32>\n"
      "  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>\n"
      "  %z = stablehlo.add %y, %y : tensor<4x8xf32>\n"
      "  func.return %z : tensor<4x8xf32>\n"
      "}\n");
}

TEST_CASE("named computations become fragments on their meshes") {
  std::string out = runPass(twoStages(), "mpmd-map-named-ops-to-mpmd-ops",
                            "assignment=stage1@m1/0,stage2@m2/1");
  CHECK(count(out, "mpmd.named_computation") == 0);
  CHECK(has(out, "mpmd.fragment<mesh=\"m1\", origin=[\"stage1\"], stage=0>"));
  CHECK(has(out, "mpmd.fragment<mesh=\"m2\", origin=[\"stage2\"], stage=1>"));
  // Each operand is assigned, each result unassigned.
  CHECK(count(out, "mpmd.assign") == 4);
  CHECK(count(out, "mpmd.unassign") == 2);
}

TEST_CASE("unassigned names and unknown meshes are errors") {
  std::string missing = runPass(twoStages(), "mpmd-map-named-ops-to-mpmd-ops",
                                "assignment=stage1@m1");
  CHECK(has(missing, "error: "));
  CHECK(has(missing, "'stage2' is not assigned to a mesh"));
  std::string unknown = runPass(twoStages(), "mpmd-map-named-ops-to-mpmd-ops",
                                "assignment=stage1@m1,stage2@m3");
  CHECK(has(unknown, "Topology doesn't have a mesh with name: m3"));
  std::string malformed = runPass(twoStages(), "mpmd-map-named-ops-to-mpmd-ops",
                                  "assignment=stage1");
  CHECK(has(malformed, "invalid 'assignment' option"));
}

TEST_CASE("an unassign assigned to another mesh becomes a transfer") {
  std::string mapped = runPass(twoStages(), "mpmd-map-named-ops-to-mpmd-ops",
                               "assignment=stage1@m1,stage2@m2");
  std::unique_ptr<Module> module = testing::parse(mapped);
  REQUIRE(module);
  REQUIRE(shardkit::runPass(*module, "mpmd-introduce-transfers", {}).ok());
  std::string out = printModule(*module);
  CHECK(count(out, "mpmd.transfer") == 1);
  CHECK(has(out,
            "mpmd.transfer %2 : (!mpmd.mesh_tensor<\"m1\", "
            "tensor<4x8xf32>>) -> !mpmd.mesh_tensor<\"m2\", "
            "tensor<4x8xf32>>"));
  // The stage-1 result is still unassigned for nothing; only the stage-2
  // result is needed outside the meshes.
  CHECK(count(out, "mpmd.unassign") == 1);
}

TEST_CASE("named computations lose duplicate and unused operands") {
  std::string in = strCat(
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {",
      kTwoMeshes,
      "} {\n"
      "  %r:2 = mpmd.named_computation<\"s\"> (%x, %x) (%a: tensor<4xf32>, "
      "%b: tensor<4xf32>) {\n"
      "    %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
      "    mpmd.return %0, %0 : tensor<4xf32>, tensor<4xf32>\n"
      "  } : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, "
      "tensor<4xf32>)\n"
      "  %s = stablehlo.add %r#0, %r#1 : tensor<4xf32>\n"
      "  func.return %s : tensor<4xf32>\n"
      "}\n");
  std::string out = runPass(in, "mpmd-simplify-named-computations");
  CHECK(has(out,
            "mpmd.named_computation<\"s\"> (%arg0) (%arg1: "
            "tensor<4xf32>)"));
  CHECK(has(out, "mpmd.return %2 : tensor<4xf32>"));
  CHECK(has(out, "stablehlo.add %0, %0"));
}

TEST_CASE("the import pipeline places two stages and what follows them") {
  std::string out = runPass(twoStages(), "mpmd-import-pipeline",
                            "name-to-mesh-assignment=stage1@m1,stage2@m2");
  // The signature is on meshes: inputs where their users are, the output
  // where it is computed.
  CHECK(has(out,
            "@main(%arg0: !mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>>, "
            "%arg1: !mpmd.mesh_tensor<\"m1\", tensor<8x8xf32>>, %arg2: "
            "!mpmd.mesh_tensor<\"m2\", tensor<8x8xf32>>) -> "
            "!mpmd.mesh_tensor<\"m2\", tensor<4x8xf32>>"));
  CHECK(count(out, "mpmd.transfer") == 1);
  CHECK(count(out, "mpmd.assign") == 0);
  CHECK(count(out, "mpmd.unassign") == 0);
  // The meshless add joined stage 2's mesh in an inferred fragment, which
  // then merged into stage 2's: one fragment per stage is left.
  CHECK(count(out, "mpmd.fragment") == 2);
  CHECK(!has(out, "origin=[]"));
  CHECK(!has(out, "infer_mesh_wrap_meshless_ops"));
  std::string bad = runPass(twoStages(), "mpmd-import-pipeline",
                            "name-to-mesh-assignment=stage1,stage2@m2");
  CHECK(has(bad, "invalid 'name-to-mesh-assignment' option"));
}

}  // namespace
}  // namespace shardkit::mpmd
