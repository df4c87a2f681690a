// Mesh inference on small programs: the use and source sets it computes, the
// rewrite into fragments and transfers, and the error without transfers.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/support/strings.h"
#include "tests/unit/mpmd/mpmd_test_util.h"

namespace shardkit::mpmd {
namespace {

using testing::count;
using testing::has;
using testing::kTwoMeshes;
using testing::runPass;

// The line of `text` holding `what`.
std::string lineWith(std::string_view text, std::string_view what) {
  size_t at = text.find(what);
  if (at == std::string_view::npos) return "";
  size_t start = text.rfind('\n', at);
  start = start == std::string_view::npos ? 0 : start + 1;
  return std::string(text.substr(start, text.find('\n', at) - start));
}

constexpr std::string_view kTypes =
    "!m1 = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n"
    "!m2 = !mpmd.mesh_tensor<\"m2\", tensor<4xf32>>\n";

// An entry argument on m1, a meshless one, ops between them used on m1 and
// m2, and a meshless output.
std::string fanOut() {
  return strCat(kTypes,
                "func.func @main(%arg0: !m1, %arg1: tensor<4xf32>) -> (!m2, "
                "tensor<4xf32>) attributes {",
                kTwoMeshes,
                "} {\n"
                "  %0 = mpmd.unassign %arg0 : (!m1) -> tensor<4xf32>\n"
                "  %1 = stablehlo.add %0, %arg1 : tensor<4xf32>\n"
                "  %2 = stablehlo.multiply %1, %1 : tensor<4xf32>\n"
                "  %3 = mpmd.assign %2 : (tensor<4xf32>) -> !m2\n"
                "  %4 = mpmd.assign %1 : (tensor<4xf32>) -> !m1\n"
                "  %5 = stablehlo.abs %arg1 : tensor<4xf32>\n"
                "  func.return %3, %5 : !m2, tensor<4xf32>\n"
                "}\n");
}

TEST_CASE("use sets flow backwards from assigns") {
  std::string out = runPass(fanOut(), "mpmd-infer-mesh-populate-use-set");
  CHECK(has(lineWith(out, "stablehlo.add"),
            "mpmd.use_set = #mpmd.meshes_with_origins<\"m1\", \"m2\">"));
  CHECK(has(lineWith(out, "stablehlo.multiply"),
            "mpmd.use_set = #mpmd.meshes_with_origins<\"m2\">"));
  CHECK(has(lineWith(out, "@main"),
            "%arg1: tensor<4xf32> {mpmd.use_set = "
            "#mpmd.meshes_with_origins<\"m1\", \"m2\">}"));
  // Nothing on a mesh uses the abs.
  CHECK_FALSE(has(lineWith(out, "stablehlo.abs"), "use_set"));
}

TEST_CASE("source sets flow forwards from unassigns") {
  std::string out = runPass(fanOut(), "mpmd-infer-mesh-populate-src-set");
  CHECK(has(lineWith(out, "stablehlo.add"),
            "mpmd.src_set = #mpmd.meshes_with_origins<\"m1\">"));
  CHECK(has(lineWith(out, "stablehlo.multiply"),
            "mpmd.src_set = #mpmd.meshes_with_origins<\"m1\">"));
  // Without use sets, the meshless argument constrains nothing.
  CHECK_FALSE(has(lineWith(out, "stablehlo.abs"), "src_set"));
}

TEST_CASE("the inference pipeline leaves no meshless op") {
  std::string out = runPass(fanOut(), "mpmd-infer-mesh-pipeline");
  CHECK(count(out, "mpmd.assign") == 0);
  CHECK(count(out, "mpmd.unassign") == 0);
  CHECK(count(out, "use_set") == 0);
  CHECK(count(out, "src_set") == 0);
  // The meshless argument and output land on meshes.
  CHECK(has(lineWith(out, "@main"),
            "(%arg0: !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>, %arg1: "
            "!mpmd.mesh_tensor<\"m1\", tensor<4xf32>>) -> "
            "(!mpmd.mesh_tensor<\"m2\", tensor<4xf32>>, "
            "!mpmd.mesh_tensor<\"m1\", tensor<4xf32>>)"));
  // The inputs move to m2 where the add and multiply are computed.
  CHECK(count(out, "mpmd.transfer") == 2);
  CHECK(count(out, "infer_mesh_wrap_meshless_ops") == 2);
}

std::string conflict() {
  return strCat(
      kTypes, "func.func @main(%arg0: !m1, %arg1: !m2) -> !m2 attributes {",
      kTwoMeshes,
      "} {\n"
      "  %f = mpmd.fragment<mesh=\"m1\", origin=[\"a\"]> (%arg0) (%x: "
      "tensor<4xf32>) {\n"
      "    %e = stablehlo.exponential %x : tensor<4xf32>\n"
      "    mpmd.return %e : tensor<4xf32>\n"
      "  } : (!m1) -> !m1\n"
      "  %0 = mpmd.unassign %f : (!m1) -> tensor<4xf32>\n"
      "  %1 = mpmd.unassign %arg1 : (!m2) -> tensor<4xf32>\n"
      "  %2 = stablehlo.subtract %0, %1 : tensor<4xf32>\n"
      "  %3 = mpmd.assign %2 : (tensor<4xf32>) -> !m2\n"
      "  func.return %3 : !m2\n"
      "}\n");
}

TEST_CASE("operands on two meshes need infer-transfers") {
  std::string refused = runPass(conflict(), "mpmd-infer-mesh-pipeline");
  CHECK(has(refused, "error: "));
  CHECK(has(refused, "operands are on conflicting meshes"));
  std::string out =
      runPass(conflict(), "mpmd-infer-mesh-pipeline", "infer-transfers=true");
  CHECK(has(out,
            "mpmd.transfer %0 : (!mpmd.mesh_tensor<\"m1\", tensor<4xf32>>) "
            "-> !mpmd.mesh_tensor<\"m2\", tensor<4xf32>>"));
  CHECK(has(out, "mpmd.fragment<mesh=\"m2\", origin=[]> (%1, %arg1)"));
  std::string bad_option =
      runPass(conflict(), "mpmd-infer-mesh-pipeline", "infer-transfers=maybe");
  CHECK(has(bad_option, "error: "));
}

TEST_CASE("a chain that needs a transfer is reported at its last op") {
  std::string chain = strCat(
      kTypes, "func.func @main(%arg0: !m1) -> !m2 attributes {", kTwoMeshes,
      "} {\n"
      "  %f = mpmd.fragment<mesh=\"m1\", origin=[\"a\"]> (%arg0) (%x: "
      "tensor<4xf32>) {\n"
      "    mpmd.return %x : tensor<4xf32>\n"
      "  } : (!m1) -> !m1\n"
      "  %0 = mpmd.unassign %f : (!m1) -> tensor<4xf32>\n"
      "  %1 = stablehlo.multiply %0, %0 : tensor<4xf32>\n"
      "  %2 = stablehlo.abs %1 : tensor<4xf32>\n"
      "  %3 = stablehlo.negate %2 : tensor<4xf32>\n"
      "  %4 = mpmd.assign %3 : (tensor<4xf32>) -> !m2\n"
      "  func.return %4 : !m2\n"
      "}\n");
  std::unique_ptr<Module> module = testing::parse(chain);
  REQUIRE(module);
  absl::Status status =
      shardkit::runPass(*module, "mpmd-infer-mesh-pipeline", {});
  REQUIRE_FALSE(status.ok());
  // The assign (line 11) and the negate (10); the abs and multiply only feed
  // the negate.
  std::vector<int> lines;
  for (const Diagnostic& d : diagnosticsOf(status)) {
    CHECK(has(d.message, "is used in {m2} but it can only be placed on {m1}"));
    lines.push_back(static_cast<int>(d.location.line));
  }
  CHECK(lines == std::vector<int>{11, 10});
}

}  // namespace
}  // namespace shardkit::mpmd
