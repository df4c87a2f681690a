// Regressions found by tests/fuzz/module_reader_fuzzer.cc: every input here
// once crashed, printed text that did not read back, or gave an unlocated or
// multi-line error.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseError;
using testing::roundTrip;

// print(parse(text)) reads back and prints the same, also via generic form.
// `options` reads invalid modules too (verify = false): the printer keeps
// what the verifier would reject.
void checkStable(const std::string& text, const ParseOptions& options = {}) {
  std::string printed = roundTrip(text, /*generic=*/false, options);
  INFO(printed);
  CHECK(roundTrip(printed, /*generic=*/false, options) == printed);
  CHECK(roundTrip(roundTrip(text, /*generic=*/true, options),
                  /*generic=*/false, options) == printed);
}

ParseOptions unverified() {
  ParseOptions options;
  options.verify = false;
  return options;
}

TEST_CASE("fuzz: an error quoting text that spans lines stays on one line") {
  std::string error = parseError("\"t.x\"() : () -> tensor<3\nx?\nx>");
  CHECK(error.starts_with(
      "test.mlir:1:17: error: expected 'x' after a dimension"));
  CHECK(error.find('\n') == std::string::npos);
}

TEST_CASE("fuzz: same-type pretty forms are not used for other types") {
  // Operand and result types differ: the pretty form could not say so.
  std::string text =
      "sdy.mesh @mesh = <[\"a\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<4xf32> {\n"
      "  %0 = \"sdy.all_slice\"(%arg0) <{slicing_axes = "
      "#sdy<list_of_axis_ref_lists[{}]>, out_sharding = #sdy.sharding<@mesh, "
      "[{?}]>}>"
      " : (tensor<8xf32>) -> tensor<4xf32>\n"
      "  %1 = \"sdy.reshard\"(%0) <{sharding = #sdy.sharding<@mesh, [{}]>}> : "
      "(tensor<4xf32>) -> tensor<8xf32>\n"
      "  %2 = \"sdy.propagation_barrier\"(%1) <{allowed_direction = "
      "#sdy<propagation_direction NONE>}> : (tensor<8xf32>) -> tensor<4xf32>\n"
      "  return %2 : tensor<4xf32>\n"
      "}\n";
  std::string printed = roundTrip(text);
  CHECK(printed.find("\"sdy.all_slice\"(%arg0)") != std::string::npos);
  CHECK(printed.find("\"sdy.reshard\"(%0)") != std::string::npos);
  CHECK(printed.find("\"sdy.propagation_barrier\"(%1)") != std::string::npos);
  checkStable(text);
  // Extra results or regions are not dropped either.
  checkStable(
      "func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = \"sdy.return\"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  \"sdy.sharding_group\"(%0) <{group_id = 1 : ui64}> ({\n"
      "    \"t.x\"() : () -> ()\n"
      "  }) : (tensor<8xf32>) -> ()\n"
      "  \"sdy.mesh\"() <{mesh = #sdy.mesh<[]>, sym_name = \"m\"}> : () -> "
      "tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n",
      unverified());
}

TEST_CASE("fuzz: brackets inside a dialect type or attribute must nest") {
  // A stray '}' kept as type text would end an enclosing region early.
  std::string error =
      parseError("func.func @f(%arg0: !foo<a } b { c>) {\n  return\n}\n");
  CHECK(error.starts_with("test.mlir:1:28: error: unbalanced '}'"));
  CHECK(!parseError("module attributes {a = #foo<x ) y>} {}").empty());
  CHECK(!parseError("module attributes {a = !foo<[>]} {}").empty());
  // Properly nested brackets of every kind are fine.
  checkStable(
      "module attributes {a = !foo<(x, [y]) -> {z = <1>}>, "
      "b = #bar<{k = [1, (2)]}>} {}");
}

TEST_CASE("fuzz: a tensor's element type cannot look like a dimension") {
  // `tensor<8x 32>` would print as `tensor<8x32>`, a different shape.
  CHECK(parseError("\"t.x\"() : () -> tensor<8x 32>") ==
        "test.mlir:1:17: error: expected an element type in 'tensor<8x 32>'");
  CHECK(!parseError("\"t.x\"() : () -> tensor<8x ?>").empty());
  CHECK(parseError("\"t.x\"() : () -> tensor<8x f32>").empty());
}

TEST_CASE("fuzz: comments inside a type's text are dropped") {
  // Kept on one line, a comment would swallow the rest of the type.
  std::string text =
      "module attributes {a = tuple<tensor<2xf32>, // one, two\n i32>, "
      "b = !foo<\"x // y\",\n  // comment >\n z>} {}";
  CHECK(roundTrip(text) ==
        "module attributes {a = tuple<tensor<2xf32>, i32>, b = !foo<\"x // "
        "y\", z>} {\n}\n");
  checkStable(text);
}

TEST_CASE("fuzz: symbol names that are not identifiers are quoted") {
  std::string text =
      "module @\"my module\" attributes {s = @\"a b\", t = @\"x y\"::@z} {\n"
      "  sdy.mesh @\"mesh 1\" = <[\"a\"=2]>\n"
      "  func.func @\"\\93\\9Ein\"(%arg0: tensor<2xf32> {sdy.sharding = "
      "#sdy.sharding<@\"mesh 1\", [{\"a\"}]>}) -> tensor<2xf32> {\n"
      "    %0 = call @\"\\93\\9Ein\"(%arg0) : (tensor<2xf32>) -> "
      "tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n";
  CHECK(roundTrip(text) == text);
  checkStable(text);
  std::unique_ptr<Module> m = testing::parseOrDie(text);
  REQUIRE(m->name);
  CHECK(*m->name == "my module");
  CHECK(m->lookupSymbol("\x93\x9Ein"));
  CHECK(m->meshTable().find("mesh 1"));
  CHECK(*m->attributes.get("s").asSymbolRef() == "a b");
}

TEST_CASE(
    "fuzz: func.return and func.call drop `func.` only directly in a "
    "function") {
  // Without sym_name the function prints in generic form; its body still
  // uses the func dialect's short names, which read back. (@f is there for
  // the call to name a function.)
  std::string generic_func =
      "func.func private @f(%arg0: i32) -> i32 {\n"
      "  return %arg0 : i32\n"
      "}\n"
      "\"func.func\"() <{function_type = (i32) -> i32}> ({\n"
      "^bb0(%arg0: i32):\n"
      "  %0 = \"func.call\"(%arg0) <{callee = @f}> : (i32) -> i32\n"
      "  \"func.return\"(%0) : (i32) -> ()\n"
      "}) : () -> ()\n";
  // A function without sym_name does not verify (as in MLIR): read it
  // unverified.
  std::string printed =
      roundTrip(generic_func, /*generic=*/false, unverified());
  CHECK(printed.find(
            "    %0 = call @f(%arg0) : (i32) -> i32\n    return %0 : i32\n") !=
        std::string::npos);
  checkStable(generic_func, unverified());
  // Elsewhere they keep their dialect prefix.
  std::string nested =
      "func.func @g(%arg0: i32) -> i32 {\n"
      "  %0 = \"t.region\"() ({\n"
      "    %1 = func.call @g(%arg0) : (i32) -> i32\n"
      "    func.return %1 : i32\n"
      "  }) : () -> i32\n"
      "  return %0 : i32\n"
      "}\n";
  printed = roundTrip(nested);
  CHECK(printed.find("      %1 = func.call @g(%arg0) : (i32) -> i32\n"
                     "      func.return %1 : i32\n") != std::string::npos);
  checkStable(nested);
}

TEST_CASE("fuzz: generic op names are printed as escaped strings") {
  std::string text = "\"t.a\\22b\\0Ac\"() : () -> ()";
  CHECK(roundTrip(text) == "module {\n  \"t.a\\22b\\0Ac\"() : () -> ()\n}\n");
  checkStable(text);
}

TEST_CASE("fuzz: an empty entry block survives the generic form") {
  // A region with one empty block prints `^bb0:` in generic form (as MLIR
  // does); `{}` alone would read back as a region without blocks.
  std::unique_ptr<Module> m =
      testing::parseOrDie("\"t.r\"() ({\n^bb0:\n}, {\n}) : () -> ()");
  Op op = m->body().front();
  CHECK(op.region(0).numBlocks() == 1);
  CHECK(op.region(1).numBlocks() == 0);
  std::string generic = printModule(*m, {.generic = true});
  CHECK(generic ==
        "module {\n  \"t.r\"() ({\n  ^bb0:\n  }, {\n  }) : () -> ()\n}\n");
  CHECK(roundTrip(generic, /*generic=*/true) == generic);
}

TEST_CASE("fuzz: a boolean in a float literal prints as the float") {
  std::string text =
      "module attributes {a = dense<[true, false]> : tensor<2xf32>} {}";
  CHECK(roundTrip(text) ==
        "module attributes {a = dense<[1.000000e+00, 0.000000e+00]> : "
        "tensor<2xf32>} {\n}\n");
  checkStable(text);
}

TEST_CASE("fuzz: attribute names that are not identifiers are quoted") {
  std::string text =
      "module attributes {\"a b\" = 1 : i32, \"\" , \"x.y\" = 2 : i32} {\n"
      "  func.func @f() attributes {\"s'  t\"} {\n"
      "    \"t.x\"() {\"0k\" = @f} : () -> ()\n"
      "    return\n"
      "  }\n"
      "}\n";
  CHECK(roundTrip(text) ==
        "module attributes {\"\", \"a b\" = 1 : i32, x.y = 2 : i32} {\n"
        "  func.func @f() attributes {\"s'  t\"} {\n"
        "    \"t.x\"() {\"0k\" = @f} : () -> ()\n"
        "    return\n"
        "  }\n"
        "}\n");
  checkStable(text);
}

TEST_CASE("fuzz: results of top-level ops are named") {
  std::string text =
      "%r = \"t.top\"() : () -> i32\n\"t.use\"(%r) : (i32) -> ()\n";
  CHECK(roundTrip(text) ==
        "module {\n"
        "  %0 = \"t.top\"() : () -> i32\n"
        "  \"t.use\"(%0) : (i32) -> ()\n"
        "}\n");
}

TEST_CASE("fuzz: entry block argument types must match the function type") {
  std::string error = parseError(
      "\"func.func\"() <{function_type = (tensor<2xf32>) -> (), sym_name = "
      "\"f\"}> ({\n"
      "^bb0(%arg0: tensor<2xi32>):\n"
      "  \"func.return\"() : () -> ()\n"
      "}) : () -> ()\n");
  CHECK(
      error ==
      "test.mlir:1:1: error: 'func.func' op type of entry block argument #0"
      "('tensor<2xi32>') must match the type of the corresponding argument in "
      "function signature('tensor<2xf32>')");
}

TEST_CASE("fuzz: a symbol whose name contains '::@' is not a nested one") {
  // In generic form the callee is an attribute: it printed unquoted, as if
  // it were a nested reference, and did not read back.
  std::string text =
      "func.func @\"f ::@g\"(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0 = call @\"f ::@g\"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %0 : tensor<2xf32>\n"
      "}\n";
  std::string generic = roundTrip(text, /*generic=*/true);
  CHECK(generic.find("callee = @\"f ::@g\"") != std::string::npos);
  checkStable(text);
  // A nested reference still prints as written.
  checkStable("module attributes {a = @\"x y\"::@z, b = @p::@q::@r} {\n}\n");
  CHECK(
      roundTrip("module attributes {b = @p::@q} {\n}\n").find("b = @p::@q}") !=
      std::string::npos);
}

}  // namespace
}  // namespace shardkit
