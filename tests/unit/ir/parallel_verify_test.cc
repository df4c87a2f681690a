// Verifying a large block's ops on several threads reports what a single
// thread reports, in the same order: errors of the op that holds the block,
// of ops in any chunk, of calls, and of ops nested in a large block of a
// large block.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/type.h"
#include "shardkit/support/strings.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseOrDie;

constexpr int kOps = static_cast<int>(kParallelVerifyMinOps) + 1000;

// An add of %<v><i> to itself as %<v><i+1>; with `bad_axis`, its sharding
// names an axis the mesh does not have.
std::string addOp(int i, bool bad_axis, std::string_view v = "v") {
  std::string text =
      strCat("  %", v, i + 1, " = stablehlo.add %", v, i, ", %", v, i);
  if (bad_axis) {
    strAppend(text,
              " {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
              "[{\"nope\"}, {}]>]>}");
  }
  strAppend(text, " : tensor<8x16xf32>\n");
  return text;
}

// One function of kOps adds, with an invalid sharding on the adds in `bad`,
// an invalid sharding on its argument, a call to a function that does not
// exist, and a while loop whose body holds kOps adds, some invalid.
std::string largeInvalidModule(const std::vector<int>& bad) {
  auto isBad = [&](int i) {
    for (int b : bad) {
      if (b == i) return true;
    }
    return false;
  };
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
      "func.func @main(%v0: tensor<8x16xf32> {sdy.sharding = "
      "#sdy.sharding<@mesh, [{\"y\"}, {\"unknown\"}]>}) -> tensor<8x16xf32> "
      "{\n";
  for (int i = 0; i < kOps; ++i) {
    text += addOp(i, isBad(i));
    if (i == kOps / 3) {
      strAppend(text, "  %r = func.call @missing(%v", i + 1,
                ") : (tensor<8x16xf32>) -> tensor<8x16xf32>\n");
    }
  }
  strAppend(text, "  %w = stablehlo.while(%u0 = %v", kOps,
            ") : tensor<8x16xf32>\n"
            "   cond {\n"
            "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
            "    stablehlo.return %t : tensor<i1>\n"
            "  } do {\n");
  for (int i = 0; i < kOps; ++i) text += "  " + addOp(i, isBad(i), "u");
  strAppend(text, "    stablehlo.return %u", kOps,
            " : tensor<8x16xf32>\n"
            "  }\n"
            "  return %w : tensor<8x16xf32>\n}\n");
  return text;
}

std::vector<Diagnostic> verifyOn(Module& module, int threads) {
  VerifyOptions options;
  options.threads = threads;
  absl::Status status = verifyModule(module, options);
  REQUIRE_FALSE(status.ok());
  return diagnosticsOf(status);
}

TEST_CASE("verifying on several threads reports one thread's diagnostics") {
  std::vector<int> bad = {3, 511, 512, 9000, kOps - 1};
  ParseOptions unverified;
  unverified.verify = false;
  std::unique_ptr<Module> module =
      parseOrDie(largeInvalidModule(bad), unverified);

  std::vector<Diagnostic> one = verifyOn(*module, 1);
  // The argument's sharding, five adds in the function, the call, five adds
  // in the loop's body.
  REQUIRE(one.size() == 1 + bad.size() + 1 + bad.size());
  CHECK(one.front().location.line == 2);
  CHECK_THAT(one.front().message, Catch::Contains("unknown"));
  for (size_t i = 1; i < one.size(); ++i) {
    INFO(formatDiagnostic(one[i - 1]) << "\nthen\n"
                                      << formatDiagnostic(one[i]));
    CHECK(one[i - 1].location.line < one[i].location.line);
  }
  for (int threads : {2, 3, 8}) {
    INFO(threads << " threads");
    CHECK(verifyOn(*module, threads) == one);
  }
}

TEST_CASE("a large valid module verifies on several threads") {
  std::unique_ptr<Module> module = parseOrDie(
      "sdy.mesh @mesh = <[\"x\"=4]>\n"
      "func.func @f(%v0: tensor<8x16xf32>) -> tensor<8x16xf32> {\n" +
      [] {
        std::string ops;
        for (int i = 0; i < kOps; ++i) ops += addOp(i, false);
        return ops;
      }() +
      strCat("  return %v", kOps, " : tensor<8x16xf32>\n}\n"));
  for (int threads : {1, 2, 4}) {
    VerifyOptions options;
    options.threads = threads;
    CHECK(verifyModule(*module, options).ok());
  }
}

// shardkit-opt verifies a module while it prints it (both only read it):
// each gives what it gives alone.
TEST_CASE("verifying while printing gives what each gives alone") {
  std::vector<int> bad = {7, kOps / 2};
  ParseOptions unverified;
  unverified.verify = false;
  std::unique_ptr<Module> module =
      parseOrDie(largeInvalidModule(bad), unverified);
  PrintOptions print;
  print.threads = 2;
  std::string printed_alone = printModule(*module, print);
  std::vector<Diagnostic> verified_alone = verifyOn(*module, 2);
  for (int round = 0; round < 3; ++round) {
    // No Catch macro off the test's thread.
    absl::Status verified;
    std::thread verifier([&] {
      VerifyOptions options;
      options.threads = 2;
      verified = verifyModule(*module, options);
    });
    std::string printed = printModule(*module, print);
    verifier.join();
    CHECK(printed == printed_alone);
    CHECK(diagnosticsOf(verified) == verified_alone);
  }
}

TEST_CASE("parsing verifies on ParseOptions::threads threads") {
  std::string text = largeInvalidModule({kOps / 2});
  ParseOptions one, two;
  two.threads = 2;
  std::string error = testing::parseError(text, one);
  CHECK_THAT(error, Catch::Contains("unknown"));
  CHECK(testing::parseError(text, two) == error);
}

// What verifier hooks on several threads may do at once: create types and
// look symbols up.
TEST_CASE("types and symbols may be asked for from several threads") {
  std::unique_ptr<Module> module = parseOrDie(
      "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  return %a : tensor<8xf32>\n}\n"
      "func.func @g(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  return %a : tensor<8xf32>\n}\n");
  constexpr int kThreads = 4, kTypes = 300;
  std::vector<std::vector<Type>> made(kThreads);
  std::vector<int> symbols_found(kThreads, 0);
  {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kTypes; ++i) {
          // Each thread in its own order, so that they race to create each.
          int64_t dim = (i * (t + 1)) % kTypes + 1;
          made[t].push_back(module->types().rankedTensor({dim, 2}, "f32"));
          if (module->lookupSymbol(i % 2 ? "f" : "g")) ++symbols_found[t];
          if (module->lookupSymbol("missing")) --symbols_found[t];
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    CHECK(symbols_found[t] == kTypes);
    for (int i = 0; i < kTypes; ++i) {
      int64_t dim = (i * (t + 1)) % kTypes + 1;
      Type expected = module->types().rankedTensor({dim, 2}, "f32");
      CHECK(made[t][i] == expected);
      CHECK(toString(expected) == strCat("tensor<", dim, "x2xf32>"));
    }
  }
}

}  // namespace
}  // namespace shardkit
