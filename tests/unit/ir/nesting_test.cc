// Inputs nested 100,000 levels deep get an error, not a stack overflow, and
// nesting within the limits still reads and prints.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/support/strings.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

constexpr int kDeep = 100000;

std::string repeat(std::string_view piece, int n) {
  std::string out;
  out.reserve(piece.size() * n);
  for (int i = 0; i < n; ++i) out += piece;
  return out;
}

std::string moduleAttr(std::string_view value) {
  return strCat("module attributes {a = ", value, "} {}");
}

// The error for `text`, which must not parse.
std::string errorOf(const std::string& text) {
  std::string error = testing::parseError(text);
  INFO(text.substr(0, 200));
  CHECK(!error.empty());
  return error;
}

bool mentionsDepth(const std::string& error) {
  return error.find("nest") != std::string::npos;
}

TEST_CASE("deeply nested regions are rejected") {
  std::string generic =
      repeat("\"t.a\"() ({\n", kDeep) + repeat("}) : () -> ()\n", kDeep);
  std::string error = errorOf(generic);
  CHECK(error.starts_with("test.mlir:401:"));
  CHECK(mentionsDepth(error));

  // Pretty forms with regions: stablehlo.while and sdy.manual_computation.
  std::string whiles =
      "func.func @f(%arg0: tensor<i32>) -> tensor<i32> {\n" +
      repeat(
          "%0 = stablehlo.while(%iterArg = %arg0) : tensor<i32> cond { "
          "stablehlo.return %iterArg : tensor<i32> } do {\n",
          kDeep) +
      "stablehlo.return %arg0 : tensor<i32>\n" +
      repeat("}\nstablehlo.return %0 : tensor<i32>\n", kDeep - 1) +
      "}\nreturn %0 : tensor<i32>\n}\n";
  CHECK(mentionsDepth(errorOf(whiles)));

  std::string manual =
      "sdy.mesh @m = <[\"x\"=2]>\n"
      "func.func @f(%arg1: tensor<2xf32>) -> tensor<2xf32> {\n" +
      repeat(
          "%0 = sdy.manual_computation(%arg1) in_shardings=[<@m, [{}]>] "
          "out_shardings=[<@m, [{}]>] manual_axes={} "
          "(%arg1: tensor<2xf32>) {\n",
          kDeep) +
      "sdy.return %arg1 : tensor<2xf32>\n" +
      repeat(
          "} : (tensor<2xf32>) -> tensor<2xf32>\n"
          "sdy.return %0 : tensor<2xf32>\n",
          kDeep - 1) +
      "} : (tensor<2xf32>) -> tensor<2xf32>\nreturn %0 : tensor<2xf32>\n}\n";
  CHECK(mentionsDepth(errorOf(manual)));
}

TEST_CASE("deeply nested attributes are rejected") {
  CHECK(mentionsDepth(
      errorOf(moduleAttr(repeat("[", kDeep) + repeat("]", kDeep)))));
  CHECK(mentionsDepth(
      errorOf(moduleAttr(repeat("{a = ", kDeep) + "1" + repeat("}", kDeep)))));
  CHECK(mentionsDepth(errorOf(repeat("[", kDeep).insert(0, "\"t.a\"() {a = ") +
                              repeat("]", kDeep) + "} : () -> ()")));
  CHECK(mentionsDepth(errorOf("\"t.a\"() <{a = " + repeat("{b = ", kDeep) +
                              "1" + repeat("}", kDeep) + "}> : () -> ()")));
  CHECK(mentionsDepth(errorOf("func.func private @f(tensor<2xf32> {a = " +
                              repeat("[", kDeep) + repeat("]", kDeep) + "})")));
}

TEST_CASE("deeply nested types are rejected") {
  CHECK(mentionsDepth(errorOf(
      moduleAttr(repeat("tuple<", kDeep) + "i32" + repeat(">", kDeep)))));
  // Function types nest through their inputs and through their results.
  CHECK(mentionsDepth(errorOf(moduleAttr(
      repeat("(", kDeep) + ")" + repeat(" -> i32)", kDeep - 1) + " -> i32"))));
  CHECK(mentionsDepth(errorOf(
      moduleAttr(repeat("() -> (", kDeep) + "i32" + repeat(")", kDeep)))));
  CHECK(mentionsDepth(
      errorOf("\"t.a\"() : () -> " + repeat("(", kDeep) + repeat(")", kDeep))));
  // A dialect type's body is kept as text: deep nesting there is harmless.
  std::string opaque =
      moduleAttr("!foo" + repeat("<", kDeep) + repeat(">", kDeep));
  CHECK(testing::parseError(opaque).empty());
}

TEST_CASE("deeply nested dense literals are rejected, high ranks are fine") {
  CHECK(mentionsDepth(
      errorOf(moduleAttr("dense<" + repeat("[", kDeep) + "1" +
                         repeat("]", kDeep) + "> : tensor<i32>"))));
  // A rank-100001 literal: printed without nesting, read back the same.
  std::string high_rank =
      moduleAttr("dense<[1, 2]> : tensor<2" + repeat("x1", kDeep) + "xi32>");
  std::string printed = testing::roundTrip(high_rank);
  CHECK(printed.find("dense<[1, 2]> : tensor<2x1x1x") != std::string::npos);
  CHECK(testing::roundTrip(printed) == printed);
  // Dims whose product overflows int64 do not match any value count.
  CHECK(testing::roundTrip(moduleAttr(
            "dense<[1, 2]> : tensor<4294967296x4294967296x4294967296xi8>")) ==
        "module attributes {a = dense<[1, 2]> : "
        "tensor<4294967296x4294967296x4294967296xi8>} {\n}\n");
}

TEST_CASE("deeply nested sdy attributes are rejected") {
  for (const std::string& text :
       {moduleAttr("#sdy.sharding<@mesh, " + repeat("[", kDeep) +
                   repeat("]", kDeep) + ">"),
        moduleAttr("#sdy.mesh<" + repeat("[", kDeep) + repeat("]", kDeep) +
                   ">"),
        moduleAttr("#sdy.sharding_per_value<" + repeat("[", kDeep) +
                   repeat("]", kDeep) + ">"),
        moduleAttr("#sdy.op_sharding_rule<" + repeat("(", kDeep) +
                   repeat(")", kDeep) + ">"),
        moduleAttr("#sdy<manual_axes" + repeat("{", kDeep) +
                   repeat("}", kDeep) + ">"),
        moduleAttr("#sdy.sharding<@mesh, [" + repeat("{", kDeep) +
                   repeat("}", kDeep) + "]>")}) {
    errorOf(text);
  }
}

TEST_CASE("nesting within the limit reads and prints") {
  constexpr int kOk = 100;
  std::string regions =
      repeat("\"t.a\"() ({\n", kOk) + repeat("}) : () -> ()\n", kOk);
  std::string printed = testing::roundTrip(regions);
  CHECK(testing::roundTrip(printed) == printed);
  CHECK(printed.find(repeat("  ", kOk) + "\"t.a\"() ({\n") !=
        std::string::npos);
  std::string arrays = moduleAttr(repeat("[", kOk) + repeat("]", kOk));
  CHECK(testing::roundTrip(arrays) ==
        strCat("module attributes {a = ", repeat("[", kOk), repeat("]", kOk),
               "} {\n}\n"));
  std::string tuples =
      moduleAttr(repeat("tuple<", 50) + "i32" + repeat(">", 50));
  CHECK(testing::roundTrip(tuples).find(repeat("tuple<", 50) + "i32") !=
        std::string::npos);
}

}  // namespace
}  // namespace shardkit
