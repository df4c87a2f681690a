// The mpmd canonicalization patterns and -inline.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/support/strings.h"
#include "tests/unit/mpmd/mpmd_test_util.h"

namespace shardkit::mpmd {
namespace {

using testing::count;
using testing::kTwoMeshes;
using testing::runPass;

constexpr std::string_view kR1 = "!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>>";
constexpr std::string_view kS1 =
    "!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>, sharding=<@mesh, [{\"x\"}, "
    "{?}]>>";
constexpr std::string_view kR2 = "!mpmd.mesh_tensor<\"m2\", tensor<4x8xf32>>";

std::string func(std::string_view args, std::string_view results,
                 std::string_view body) {
  return strCat("func.func @f(", args, ") -> ", results, " attributes {",
                kTwoMeshes, "} {\n", body, "\n}\n");
}

TEST_CASE("transfers: identities vanish, intra-mesh chains shorten") {
  std::string identity =
      func(strCat("%a: ", kR1), kR1,
           strCat("  %0 = mpmd.transfer %a : (", kR1, ") -> ", kR1,
                  "\n  func.return %0 : ", kR1));
  CHECK(count(runPass(identity, "canonicalize"), "mpmd.transfer") == 0);
  std::string chain = func(strCat("%a: ", kR1), kR1,
                           strCat("  %0 = mpmd.transfer %a : (", kR1, ") -> ",
                                  kS1, "\n  %1 = mpmd.transfer %0 : (", kS1,
                                  ") -> ", kR1, "\n  func.return %1 : ", kR1));
  // transfer(transfer(a)) on one mesh is transfer(a), here an identity.
  CHECK(count(runPass(chain, "canonicalize"), "mpmd.transfer") == 0);
  std::string cross = func(strCat("%a: ", kR1), kR2,
                           strCat("  %0 = mpmd.transfer %a : (", kR1, ") -> ",
                                  kS1, "\n  %1 = mpmd.transfer %0 : (", kS1,
                                  ") -> ", kR2, "\n  func.return %1 : ", kR2));
  CHECK(count(runPass(cross, "canonicalize"), "mpmd.transfer") == 2);
}

TEST_CASE("broadcast and reduce chains flatten") {
  std::string broadcasts = func("%a: tensor<4xf32>", "tensor<4xf32>",
                                "  %0 = mpmd.broadcast %a : tensor<4xf32>\n"
                                "  %1 = mpmd.broadcast %0 : tensor<4xf32>\n"
                                "  func.return %1 : tensor<4xf32>");
  CHECK(count(runPass(broadcasts, "canonicalize"), "mpmd.broadcast") == 1);
  auto reduces = [](std::string_view inner, std::string_view outer) {
    return func("%a: tensor<4xf32>", "tensor<4xf32>",
                strCat("  %0 = mpmd.reduce<", inner,
                       "> %a, %a : (tensor<4xf32>, tensor<4xf32>) -> "
                       "tensor<4xf32>\n  %1 = mpmd.reduce<",
                       outer,
                       "> %0 : (tensor<4xf32>) -> tensor<4xf32>\n"
                       "  func.return %1 : tensor<4xf32>"));
  };
  CHECK(count(runPass(reduces("add", "add"), "canonicalize"), "mpmd.reduce") ==
        1);
  CHECK(count(runPass(reduces("add", "none"), "canonicalize"), "mpmd.reduce") ==
        1);
  CHECK(count(runPass(reduces("mul", "add"), "canonicalize"), "mpmd.reduce") ==
        2);
}

TEST_CASE("a fragment's pass-through results are replaced by its operands") {
  std::string text =
      func(strCat("%a: ", kR1), strCat("(", kR1, ", ", kR1, ")"),
           strCat("  %0:2 = mpmd.fragment<mesh=\"m1\", origin=[]> (%a) (%b: "
                  "tensor<4x8xf32>) {\n"
                  "    %1 = stablehlo.negate %b : tensor<4x8xf32>\n"
                  "    mpmd.return %1, %b : tensor<4x8xf32>, tensor<4x8xf32>\n"
                  "  } : (",
                  kR1, ") -> (", kR1, ", ", kR1,
                  ")\n  func.return %0#0, %0#1 : ", kR1, ", ", kR1));
  CHECK(runPass(text, "canonicalize").find("return %0#0, %arg0") !=
        std::string::npos);
}

TEST_CASE("-inline inlines func.call, never mpmd calls") {
  std::string text = strCat(
      "func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
      "  %0 = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  %1 = mpmd.call @g(%0) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>\n}\n"
      "func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.negate %a : tensor<4xf32>\n"
      "  func.return %0 : tensor<4xf32>\n}\n");
  std::string out = runPass(text, "inline");
  CHECK(count(out, "func.call") == 0);
  CHECK(count(out, "mpmd.call @g") == 1);
  CHECK(count(out, "stablehlo.negate") == 2);
  // @g is still called by mpmd.call: kept.
  CHECK(count(out, "func.func private @g") == 1);
  std::string only_func_call = strCat(
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %0 : tensor<4xf32>\n}\n"
      "func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  func.return %a : tensor<4xf32>\n}\n");
  // A private function that lost its last call is erased.
  CHECK(count(runPass(only_func_call, "inline"), "@g") == 0);
}

}  // namespace
}  // namespace shardkit::mpmd
