// The reader's fast path (generic ops in MLIR's own spelling, read from the
// characters) and its SSA name table: whatever the fast path reads, it must
// read as the token parser would, and whatever it cannot read it must leave
// to the token parser, errors included.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "src/asm/value_names.h"
#include "tests/unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseError;
using testing::parseOrDie;

TEST_CASE("value names: numbered, argument and other names in scopes") {
  ValueNames names(1 << 20);
  names.pushScope(/*isolated=*/true);
  CHECK(names.bind("%0", {10, 1}));
  CHECK(names.bind("%arg0", {20, 1}));
  CHECK(names.bind("%x", {30, 2}));
  CHECK_FALSE(names.bind("%0", {11, 1}));  // twice in one scope
  CHECK_FALSE(names.bind("%x", {31, 1}));
  // `%01` is another name than `%1`; neither is bound.
  CHECK(names.find("%1") == nullptr);
  CHECK(names.bind("%01", {40, 1}));
  CHECK(names.find("%1") == nullptr);
  REQUIRE(names.find("%01") != nullptr);
  CHECK(names.find("%01")->first == 40);

  // An inner scope sees the outer names and may shadow them.
  names.pushScope(/*isolated=*/false);
  CHECK(names.find("%0")->first == 10);
  CHECK(names.boundInInnermost("%0") == false);
  CHECK(names.bind("%0", {50, 1}));
  CHECK(names.find("%0")->first == 50);
  names.popScope();
  CHECK(names.find("%0")->first == 10);

  // An isolated scope sees none of them.
  names.pushScope(/*isolated=*/true);
  CHECK(names.find("%0") == nullptr);
  CHECK(names.find("%arg0") == nullptr);
  CHECK(names.find("%x") == nullptr);
  CHECK(names.bind("%arg0", {60, 1}));
  CHECK(names.find("%arg0")->first == 60);
  names.popScope();
  CHECK(names.find("%arg0")->first == 20);
  CHECK(names.find("%x")->count == 2);
}

TEST_CASE("value names: numbers past the table's bound use the maps") {
  // A 1 KiB text keeps numbers below 1024 in the arrays.
  ValueNames names(1024);
  names.pushScope(/*isolated=*/true);
  CHECK(names.bind("%99999999", {1, 1}));
  CHECK(names.bind("%1023", {2, 1}));
  CHECK(names.find("%99999999")->first == 1);
  CHECK(names.find("%1023")->first == 2);
  CHECK_FALSE(names.bind("%99999999", {3, 1}));
}

constexpr std::string_view kHead = R"(module {
  "func.func"() ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
)";
constexpr std::string_view kTail =
    R"(  }) {function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"} : () -> ()
}
)";

std::string body(std::string_view ops) {
  return std::string(kHead) + std::string(ops) + std::string(kTail);
}

TEST_CASE("ops read by the fast path print as the token parser reads them") {
  // The second op of each pair repeats the first one's tail, so the fast
  // path reads it from the cache.
  std::string text = body(
      R"(    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.add"(%0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2:2 = "x.pair"(%1) {k = 1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %3:2 = "x.pair"(%2#1) {k = 1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %a, %b = "x.pair"(%3#0) {k = 1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    "func.return"() : () -> ()
)");
  ParseOptions options;
  options.allow_unregistered_dialect = true;
  auto module = parseOrDie(text, options);
  PrintOptions print;
  print.generic = true;
  std::string printed = printModule(*module, print);
  CHECK_THAT(printed, Catch::Contains("%1 = \"stablehlo.add\"(%0, %arg1)"));
  CHECK_THAT(printed, Catch::Contains("\"x.pair\"(%2#1) {k = 1 : i64}"));
  CHECK_THAT(printed, Catch::Contains("\"x.pair\"(%3#0) {k = 1 : i64}"));
  // Read again, it prints the same.
  auto again = parseOrDie(printed, options);
  CHECK(printModule(*again, print) == printed);
}

TEST_CASE("ops after a fast-path op keep their locations and comments") {
  // The fast path tries the op after the one it read before reading its
  // token; a location on the next line, a comment or a blank line between
  // them must read as the token parser reads them.
  std::string add =
      R"(= "stablehlo.add"(%A, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>)";
  auto op = [&](std::string_view result, std::string_view operand) {
    std::string text = add;
    text.replace(text.find("%A"), 2, operand);
    return strCat("    ", result, " ", text, "\n");
  };
  std::string text =
      body(op("%0", "%arg0") + op("%1", "%0") + "      loc(\"a.py\":3:4)\n" +
           "    // a comment\n" + op("%2", "%1") + "\n" + op("%3", "%2") +
           op("%4", "%3") + "    \"func.return\"() : () -> ()\n");
  ParseOptions options;
  options.allow_unregistered_dialect = true;
  auto module = parseOrDie(text, options);
  PrintOptions print;
  print.generic = true;
  print.debug_info = true;
  std::string printed = printModule(*module, print);
  INFO(printed);
  CHECK_THAT(printed, Catch::Contains("(%0, %arg1) : (tensor<4xf32>, "
                                      "tensor<4xf32>) -> tensor<4xf32> "
                                      "loc(\"a.py\":3:4)"));
  for (std::string_view operand : {"%arg0", "%1", "%2", "%3"}) {
    CHECK_THAT(printed, Catch::Contains(strCat("(", operand,
                                               ", %arg1) : (tensor<4xf32>, "
                                               "tensor<4xf32>) -> "
                                               "tensor<4xf32> loc(unknown)")));
  }
}

TEST_CASE("what the fast path cannot read gets the token parser's error") {
  ParseOptions options;
  options.allow_unregistered_dialect = true;
  // The error of a function body of two ops, the second after a cached
  // tail.
  auto errorOf = [&](const std::string& first, const std::string& second,
                     const ParseOptions& parse) {
    return parseError(body("    " + first + "\n    " + second +
                           "\n    \"func.return\"() : () -> ()\n"),
                      parse);
  };
  std::string add =
      R"("stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>)";
  // A value redefined in one scope.
  CHECK_THAT(errorOf("%0 = " + add, "%0 = " + add, options),
             Catch::Contains("redefinition of SSA value '%0'"));
  // Two result names, the second bound already.
  std::string pair =
      R"("x.pair"(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>))";
  CHECK_THAT(errorOf("%p:2 = " + pair, "%q, %p = " + pair, options),
             Catch::Contains("redefinition of SSA value '%p'"));
  // An undeclared operand.
  CHECK_THAT(errorOf("%0 = " + add,
                     "%1 = \"stablehlo.add\"(%9, %arg1) : (tensor<4xf32>, "
                     "tensor<4xf32>) -> tensor<4xf32>",
                     options),
             Catch::Contains("use of undeclared SSA value '%9'"));
  // A result count that does not match the cached types.
  CHECK_THAT(errorOf("%0 = " + add, "%1:2 = " + add, options),
             Catch::Contains("operation defines 1 results but was given 2"));
  // An unregistered op without -allow-unregistered-dialect.
  ParseOptions strict;
  strict.allow_unregistered_dialect = false;
  std::string unknown = R"("x.op"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>)";
  CHECK_THAT(errorOf("%0 = " + unknown, "%1 = " + unknown, strict),
             Catch::Contains("unregistered operation 'x.op'"));
}

TEST_CASE("a location after a fast-path op is read") {
  ParseOptions options;
  std::string add =
      R"("stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>)";
  std::string text = body("    %0 = " + add + "\n    %1 = " + add +
                          "\n loc(\"here\")\n    \"func.return\"() : () -> "
                          "()\n");
  auto module = parseOrDie(text, options);
  PrintOptions print;
  print.debug_info = true;
  CHECK_THAT(printModule(*module, print), Catch::Contains("loc(\"here\")"));
  // An unterminated location is the token parser's error.
  std::string bad =
      body("    %0 = " + add + "\n    %1 = " + add + "\n loc(\"here\"\n");
  CHECK_FALSE(parseError(bad, options).empty());
}

TEST_CASE("an op's regions are read in place, nested ones included") {
  // Region 0 of x.two holds an op with a region of its own, so x.two's
  // regions must move to stay together when region 1 is read.
  std::string text = R"(module {
  %0 = "x.two"() ({
    "x.inner"() ({
      "x.leaf"() : () -> ()
    }) : () -> ()
  }, {
    "x.other"() : () -> ()
  }) {k = 1 : i64} : () -> tensor<2xf32>
  "x.use"(%0) : (tensor<2xf32>) -> ()
}
)";
  auto module = parseOrDie(text);
  Op two = module->body().front();
  REQUIRE(two.numRegions() == 2);
  CHECK(two.numResults() == 1);
  CHECK(two.attr("k").intValue() == 1);
  for (unsigned r = 0; r < 2; ++r) {
    Region region = two.region(r);
    CHECK(region.parentOp() == two);
    REQUIRE(region.numBlocks() == 1);
    CHECK(region.block(0).parentRegion() == region);
  }
  CHECK(two.region(0).front().front().name() == "x.inner");
  CHECK(two.region(1).front().front().name() == "x.other");
  CHECK(two.nextInBlock().operand(0) == two.result(0));
  PrintOptions print;
  print.generic = true;
  std::string printed = printModule(*module, print);
  auto again = parseOrDie(printed);
  CHECK(printModule(*again, print) == printed);
}

TEST_CASE(
    "an op with regions whose head the fast path reads reads as "
    "the token parser reads it") {
  // `({` right after the operands: the fast path reads the head; `( {`:
  // the token parser reads the whole op. Both must give the same module,
  // ids included, and the same errors (which lie at the op's start or on
  // lines after the head, so the extra blank moves none of them).
  auto reduceBody = [](std::string_view results, std::string_view open,
                       std::string_view inner, std::string_view tail_type) {
    return strCat("    ", results, " = \"stablehlo.reduce\"(%arg0, %arg1) ",
                  open,
                  "\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                  "      %s = \"stablehlo.add\"(%a, ",
                  inner,
                  ") : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
                  "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
                  "    }) {dimensions = array<i64: 0>} : (",
                  tail_type, ", tensor<f32>) -> tensor<f32>\n");
  };
  auto module = [&](std::string_view results, std::string_view open,
                    std::string_view inner, std::string_view tail_type) {
    return strCat(
        "module {\n  \"func.func\"() ({\n  ^bb0(%arg0: tensor<4xf32>, "
        "%arg1: tensor<f32>):\n",
        reduceBody(results, open, inner, tail_type),
        reduceBody("%1", open, "%b", "tensor<4xf32>"),
        "    \"func.return\"(%1) : (tensor<f32>) -> ()\n  }) {function_type "
        "= (tensor<4xf32>, tensor<f32>) -> tensor<f32>, sym_name = \"f\"} : "
        "() -> ()\n}\n");
  };
  auto fast = parseOrDie(module("%0", "({", "%b", "tensor<4xf32>"));
  auto tokens = parseOrDie(module("%0", "( {", "%b", "tensor<4xf32>"));
  PrintOptions print;
  print.generic = true;
  CHECK(printModule(*fast, print) == printModule(*tokens, print));
  Block fast_body = fast->body().front().region(0).front();
  Block token_body = tokens->body().front().region(0).front();
  REQUIRE(fast_body.numOps() == token_body.numOps());
  for (Op a = fast_body.front(), b = token_body.front(); a;
       a = a.nextInBlock(), b = b.nextInBlock()) {
    CHECK(a.id() == b.id());
    CHECK(a.numRegions() == b.numRegions());
    if (a.numResults() > 0) CHECK(a.result(0).id() == b.result(0).id());
  }
  CHECK(fast_body.front().attr("dimensions") ==
        token_body.front().attr("dimensions"));

  // Errors in the head, the region and the tail of the first reduce.
  struct Bad {
    std::string_view results, inner, tail_type, error;
  };
  for (const Bad& bad : {
           Bad{"%0:2", "%b", "tensor<4xf32>", "defines 1 results"},
           Bad{"%arg1", "%b", "tensor<4xf32>", "redefinition of SSA value"},
           Bad{"%0", "%q", "tensor<4xf32>", "undeclared SSA value '%q'"},
           Bad{"%0", "%0", "tensor<4xf32>", "undeclared SSA value '%0'"},
           Bad{"%0", "%b", "tensor<5xf32>", "signature says tensor<5xf32>"},
       }) {
    std::string error = parseError(
        module(bad.results, "({", bad.inner, bad.tail_type), ParseOptions());
    CHECK_THAT(error, Catch::Contains(std::string(bad.error)));
    CHECK(error ==
          parseError(module(bad.results, "( {", bad.inner, bad.tail_type),
                     ParseOptions()));
  }
}

TEST_CASE("argument lists read from the characters read as the tokens do") {
  // Types seen for the first time and again, names of every kind, blanks;
  // then lists the fast path leaves to the token parser: attributes, a
  // location, a line break, a type it does not delimit.
  std::string text =
      R"(func.func @f(%arg0: tensor<4x8xf32>, %x:tensor<4x8xf32> ,  %arg2: !stablehlo.token, %3: tensor<i32>) -> tensor<4x8xf32> {
  %r = stablehlo.reduce(%arg0 init: %3) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<i32>) -> tensor<4xf32>
  %s = "stablehlo.reduce"(%x, %3) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<4x8xf32>, tensor<i32>) -> tensor<8xf32>
  return %arg0 : tensor<4x8xf32>
}
func.func @g(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}, %b: tensor<2xf32> loc("b"),
             %c: tensor<2xf32>, %d: tuple<tensor<2xf32>, i1>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
sdy.mesh @m = <["x"=2]>
)";
  auto module = parseOrDie(text);
  Op f = module->lookupSymbol("f");
  Block body = f.region(0).front();
  REQUIRE(body.numArguments() == 4);
  CHECK(body.argument(1).type() == body.argument(0).type());
  CHECK(body.argument(2).type().isToken());
  CHECK(body.argument(3).type().str() == "tensor<i32>");
  Op g = module->lookupSymbol("g");
  REQUIRE(g.region(0).front().numArguments() == 4);
  CHECK(g.region(0).front().argument(3).type().str() ==
        "tuple<tensor<2xf32>, i1>");
  PrintOptions generic;
  generic.generic = true;
  std::string printed = printModule(*module, generic);
  auto again = parseOrDie(printed);
  CHECK(printModule(*again, generic) == printed);
  CHECK(printModule(*again) == printModule(*module));

  // Errors are the token parser's.
  CHECK_THAT(parseError("func.func @h(%a: tensor<2xf32, %b: f32) {\n"
                        "  return\n}\n",
                        ParseOptions()),
             Catch::Contains("1:39: error: unbalanced ')' in '<...>'"));
  CHECK_THAT(parseError("func.func @h(%a: tensor<2xf32>, %a: f32) {\n"
                        "  return\n}\n",
                        ParseOptions()),
             Catch::Contains("1:33: error: redefinition of SSA value '%a'"));
  CHECK_THAT(parseError("func.func @h(%a tensor<2xf32>) {\n  return\n}\n",
                        ParseOptions()),
             Catch::Contains("expected ':'"));
}

// A generic function whose attribute dictionary is `attrs` (the function
// takes two tensor<4xf32> and returns one).
std::string genericFunc(const std::string& attrs) {
  return R"(module {
  "sdy.mesh"() {mesh = #sdy.mesh<["a"=2]>, sym_name = "mesh"} : () -> ()
  "func.func"() ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    "func.return"(%arg0) : (tensor<4xf32>) -> ()
  }) {)" +
         attrs + R"(} : () -> ()
}
)";
}

TEST_CASE(
    "type lists and arrays read from the characters read as the tokens "
    "do") {
  // The same function written for the fast path (one line, cached types,
  // recent dictionaries) and with what it leaves to the tokens: line breaks,
  // comments, spaces, a nested function type, other elements.
  const std::string kType = "tensor<4xf32>";
  std::string fast = genericFunc(
      "arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}, "
      "{sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}], "
      "res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}]>}], "
      "function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, "
      "sym_name = \"main\", t.list = [[1, 2], [\"s\", {x = 1}], [], [ ]], "
      "t.type = ((tensor<4xf32>) -> tensor<4xf32>, i1) -> (i1, i1)");
  std::string tokens = genericFunc(
      "arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>},\n"
      "  {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>} // c\n], "
      "res_attrs = [\n{sdy.sharding = #sdy.sharding<@mesh, [{}]>}], "
      "function_type = ( tensor<4xf32> ,\n tensor<4xf32>) -> tensor<4xf32>, "
      "sym_name = \"main\", t.list = [[1,\n 2], [\"s\", {x = 1}], [\n], []], "
      "t.type = ((tensor<4xf32>) -> tensor<4xf32>, // c\n i1) -> (i1,\ni1)");
  auto a = parseOrDie(fast);
  auto b = parseOrDie(tokens);
  CHECK(printModule(*a) == printModule(*b));
  FuncOp f(a->lookupSymbol("main"));
  REQUIRE(f);
  CHECK(f.argAttr(1, "sdy.sharding").as<TensorSharding>() != nullptr);
  CHECK(f.op().attr("t.list").asArray()->size() == 4);
  CHECK(f.op().attr("t.type").asType()->str() ==
        "((" + kType + ") -> " + kType + ", i1) -> (i1, i1)");

  // Errors are the token parser's, and nesting stops at its limit however
  // the lists are written (a list that fell back to the tokens at every
  // level would take exponential time).
  auto error = [](const std::string& attrs) {
    return parseError(genericFunc(attrs), ParseOptions());
  };
  CHECK_THAT(error("function_type = (tensor<4xf32>, ) -> tensor<4xf32>"),
             Catch::Contains("6:37: error: expected ')', got ','"));
  CHECK_THAT(error("function_type = (tensor<4xf32>, foo) -> tensor<4xf32>"),
             Catch::Contains("6:39: error: unknown type 'foo'"));
  CHECK_THAT(error("function_type = (tensor<4xf32> -> tensor<4xf32>"),
             Catch::Contains("error: expected ')', got '->'"));
  CHECK_THAT(error("arg_attrs = [{}, {a = }]"),
             Catch::Contains("6:29: error: expected attribute value, got '}'"));
  CHECK_THAT(error("arg_attrs = [{}, {}, ]"),
             Catch::Contains("6:28: error: expected attribute value, got ']'"));
  const std::string deep_array(410, '[');
  CHECK_THAT(error("t.a = " + deep_array + std::string(410, ']')),
             Catch::Contains("nesting deeper than"));
  // A recent dictionary one level too deep is too deep, as the token
  // parser finds it.
  auto deep_dicts = [](int levels) {
    return "t.a = {x = 1}, t.b = " + std::string(levels, '[') +
           "{x = 1}, {x = 1}" + std::string(levels, ']') +
           ", function_type = (tensor<4xf32>, tensor<4xf32>) -> "
           "tensor<4xf32>, sym_name = \"main\"";
  };
  CHECK(error(deep_dicts(399)).empty());
  CHECK_THAT(error(deep_dicts(400)),
             Catch::Contains("6:428: error: nesting deeper than"));
  std::string deep_type = kType;
  for (int i = 0; i < 410; ++i) deep_type = "(" + deep_type + ") -> i1";
  CHECK_THAT(error("t.a = " + deep_type),
             Catch::Contains("nesting deeper than"));
}

TEST_CASE(
    "text that ends after a region's comma is an error, read from a "
    "view or a string") {
  std::string text =
      "\"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n"
      "  \"func.return\"() : () -> ()\n},";
  // The view ends before a '{' that must not be read.
  std::string longer = text + "{\n}) : () -> ()";
  std::string_view view(longer.data(), text.size());
  auto check = [](const absl::StatusOr<std::unique_ptr<Module>>& m) {
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(
        std::string(fromAbsl(m.status().message())),
        Catch::Contains("in.mlir:3:3: error: expected an opening bracket"));
  };
  check(parseModule(view, "in.mlir"));
  check(parseModule(std::string(text), "in.mlir"));
}

}  // namespace
}  // namespace shardkit
