// Printing a large module's functions on several threads gives the text a
// single thread gives: names, op-chosen names (%c, %iterArg), regions,
// attributes and debug locations included, whatever the thread count.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/core/strings.h"
#include "shardkit/ir/module_io.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseOrDie;

// `functions` functions of about 12 ops per step of `steps`, each with
// a sharding, a constant, a while loop and a function of its own name.
std::string manyFunctions(int functions, int steps) {
  std::string text = "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n";
  for (int f = 0; f < functions; ++f) {
    strAppend(text, "func.func @f", f,
              "(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, "
              "[{\"x\"}, {}]>}) -> tensor<8x16xf32> {\n  %v0 = stablehlo.abs "
              "%a : tensor<8x16xf32>\n");
    for (int i = 0; i < steps; ++i) {
      strAppend(text, "  %c", i,
                " = stablehlo.constant dense<1.0> : tensor<8x16xf32>\n"
                "  %s",
                i, " = stablehlo.add %v", i, ", %c", i,
                " {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                "[{\"x\", ?}, {\"y\"}]>]>} : tensor<8x16xf32>\n"
                "  %w",
                i, ":2 = stablehlo.while(%i = %s", i, ", %j = %c", i,
                ") : tensor<8x16xf32>, tensor<8x16xf32>\n"
                "   cond {\n"
                "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
                "    stablehlo.return %t : tensor<i1>\n"
                "  } do {\n"
                "    %n = stablehlo.negate %i : tensor<8x16xf32>\n"
                "    stablehlo.return %n, %j : tensor<8x16xf32>, "
                "tensor<8x16xf32>\n"
                "  }\n"
                "  %v",
                i + 1, " = stablehlo.multiply %w", i, "#0, %w", i,
                "#1 : tensor<8x16xf32>\n");
    }
    strAppend(text, "  return %v", steps, " : tensor<8x16xf32>\n}\n");
  }
  return text;
}

TEST_CASE("a large module prints the same on 1, 2, 3 and 8 threads") {
  std::unique_ptr<Module> module = parseOrDie(manyFunctions(40, 64));
  // Large enough, and with several functions, to print in parallel.
  REQUIRE(module->opIdBound() >= kParallelPrintMinOps);
  for (bool generic : {false, true}) {
    PrintOptions options;
    options.generic = generic;
    options.debug_info = true;
    std::string one = printModule(*module, options);
    CHECK(one.find("f39") != std::string::npos);
    for (int threads : {2, 3, 8}) {
      options.threads = threads;
      CHECK(printModule(*module, options) == one);
    }
  }
}

TEST_CASE("a small module with threads prints as with one") {
  std::unique_ptr<Module> module = parseOrDie(manyFunctions(3, 2));
  REQUIRE(module->opIdBound() < kParallelPrintMinOps);
  PrintOptions options;
  std::string one = printModule(*module, options);
  options.threads = 4;
  CHECK(printModule(*module, options) == one);
}

}  // namespace
}  // namespace shardkit
