// Printing a large module's functions on several threads gives the text a
// single thread gives: names, op-chosen names (%c, %iterArg), regions,
// attributes and debug locations included, whatever the thread count.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/support/strings.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseOrDie;

// A function per entry of `steps_per_function`, of about 12 ops (4 in the
// function's body, the rest in a while loop's regions) per step, each with a
// sharding, a constant, a while loop and a function of its own name.
std::string functionsOfSteps(const std::vector<int>& steps_per_function) {
  std::string text = "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n";
  for (int f = 0; f < static_cast<int>(steps_per_function.size()); ++f) {
    int steps = steps_per_function[f];
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

// `functions` functions of `steps` steps each.
std::string manyFunctions(int functions, int steps) {
  return functionsOfSteps(std::vector<int>(functions, steps));
}

// The function body's op count: the ops printed side by side when a block is
// large.
size_t bodyOps(Module& module, std::string_view function) {
  for (Op op : module.body()) {
    if (isa<FuncOp>(op) && FuncOp(op).name() == function) {
      return op.region(0).front().numOps();
    }
  }
  return 0;
}

// A sink that keeps every piece, to compare with a print into a string.
class CollectingSink : public TextSink {
 public:
  void write(std::string_view text) override {
    text_.append(text);
    ++pieces_;
  }
  const std::string& text() const { return text_; }
  int pieces() const { return pieces_; }

 private:
  std::string text_;
  int pieces_ = 0;
};

// Prints `module` on 1, 2, 3 and 8 threads, pretty and generic, with debug
// locations, into strings and into a sink: every text must be the same as
// the one-thread print into a string.
void checkSameOnAnyThreadCount(Module& module) {
  for (bool generic : {false, true}) {
    PrintOptions options;
    options.generic = generic;
    options.debug_info = true;
    std::string one = printModule(module, options);
    for (int threads : {1, 2, 3, 8}) {
      options.threads = threads;
      CHECK(printModule(module, options) == one);
      CollectingSink sink;
      printModule(module, options, sink);
      CHECK(sink.text() == one);
      // The text went out in pieces of about a megabyte, not all at the end.
      CHECK(sink.pieces() > 1);
    }
  }
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

TEST_CASE("one large function prints the same on 1, 2, 3 and 8 threads") {
  std::unique_ptr<Module> module = parseOrDie(manyFunctions(1, 5100));
  // The body's ops print side by side in chunks.
  REQUIRE(bodyOps(*module, "f0") >= kParallelPrintMinOps);
  checkSameOnAnyThreadCount(*module);
}

TEST_CASE("a large function beside small ones prints the same") {
  // The large body prints side by side; the small functions around it print
  // on the writer's thread.
  std::unique_ptr<Module> module =
      parseOrDie(functionsOfSteps({3, 5100, 2, 1}));
  REQUIRE(bodyOps(*module, "f1") >= kParallelPrintMinOps);
  REQUIRE(bodyOps(*module, "f0") < kParallelPrintMinOps);
  checkSameOnAnyThreadCount(*module);
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
