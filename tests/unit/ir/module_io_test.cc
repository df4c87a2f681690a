// parseModule's options and diagnostics (`FILE:LINE:COL: error: ...`),
// splitInputFile, and verifying a module that was edited or built in C++.
#include "shardkit/asm/module_io.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseError;

TEST_CASE("parse errors name the file, line and column") {
  CHECK(parseError("func.func @f(%arg0: tensor<i32>) -> tensor<i32> {\n"
                   "  %0 = stablehlo.abs %nope : tensor<i32>\n"
                   "  return %0 : tensor<i32>\n"
                   "}\n") ==
        "test.mlir:2:22: error: use of undeclared SSA value '%nope'");
  CHECK(parseError("\n\n   \"t.x\"(%a) : () -> ()") ==
        "test.mlir:3:10: error: use of undeclared SSA value '%a'");
  CHECK(parseError("func.func @f() {\n  return\n") ==
        "test.mlir:3:1: error: expected '}', got end of input");
  CHECK(parseError(
            "func.func @f(%a: tensor<i32>, %a: tensor<i32>) {\n  return\n}") ==
        "test.mlir:1:31: error: redefinition of SSA value '%a'");
  // `!name` with no dialect prefix is an alias, which must be defined.
  CHECK(parseError("func.func @f(%a: !nope) {\n  return\n}") ==
        "test.mlir:1:18: error: undefined symbol alias id 'nope'");
  CHECK(parseError("!t = tensor<i32>\nfunc.func @f(%a: !t2) {\n  return\n}") ==
        "test.mlir:2:18: error: undefined symbol alias id 't2'");
  // Tabs count as one column; lines count '\n'.
  CHECK(parseError("\t%x = \"t.x\"() : () -> i32 i32") ==
        "test.mlir:1:27: error: unknown operation 'i32' (write it in generic "
        "form: "
        "\"i32\"(...))");
  absl::StatusOr<std::unique_ptr<Module>> named =
      parseModule("\"t.x\"(", "dir/in.mlir");
  REQUIRE(!named.ok());
  CHECK(std::string(fromAbsl(named.status().message()))
            .starts_with("dir/in.mlir:1:7: error: "));
}

TEST_CASE("verifier errors list every violation with the op's position") {
  std::string error = parseError(
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = sdy.reshard %arg0 <@mesh, [{\"a\"}]> : tensor<4xf32>\n"
      "  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<4xf32>\n"
      "  return %1 : tensor<4xf32>\n"
      "}\n");
  CHECK(error ==
        "test.mlir:3:3: error: 'sdy.reshard' op unknown axis name: \"a\"\n"
        "test.mlir:4:3: error: 'sdy.reshard' op sharding doesn't match tensor "
        "rank: 2 != 1");
}

TEST_CASE("parse options: unregistered dialects and verification") {
  std::string unknown = "\"mydialect.op\"() : () -> ()";
  CHECK(parseError(unknown).empty());
  ParseOptions strict;
  strict.allow_unregistered_dialect = false;
  CHECK(parseError(unknown, strict) ==
        "test.mlir:1:1: error: unregistered operation 'mydialect.op' (use "
        "-allow-unregistered-dialect)");
  CHECK(parseError("\"stablehlo.partition_id\"() : () -> tensor<ui32>", strict)
            .empty());

  std::string invalid = "sdy.mesh @m = <[\"a\"=2, \"a\"=2]>";
  CHECK(!parseError(invalid).empty());
  ParseOptions no_verify;
  no_verify.verify = false;
  std::unique_ptr<Module> m = testing::parseOrDie(invalid, no_verify);
  CHECK(m->numOps() == 1);
  CHECK(!verifyModule(*m).ok());
}

TEST_CASE("the module keeps its file name and line starts, not its text") {
  std::string text =
      "module {\n  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = stablehlo.abs %a : tensor<4xf32>\n    return %0 : "
      "tensor<4xf32>\n  }\n}\n";
  absl::StatusOr<std::unique_ptr<Module>> m =
      parseModule(std::move(text), "x.mlir");
  REQUIRE(m.ok());
  CHECK((*m)->file_name == "x.mlir");
  CHECK((*m)->source_lines.numLines() == 7);
  // A diagnostic made after the text is gone still has its line and column.
  Op abs;
  (*m)->walk([&](Op op) {
    if (op.name() == "stablehlo.abs") abs = op;
  });
  REQUIRE(abs);
  CHECK(locationOf(abs) == DiagnosticLocation{"x.mlir", 3, 5, {}});
  CHECK(parseModule("module {}").value()->file_name == "-");
}

TEST_CASE("parseModuleInPlace reads the text where it lies and keeps none") {
  // Two modules in one buffer, separated by a NUL: the first view ends at
  // the NUL, so the reader must stop there instead of reading the second.
  std::string buffer =
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  return %a : tensor<4xf32>\n}";
  size_t first_size = buffer.size();
  buffer += '\0';
  buffer += "func.func @g() {\n  return\n}\n";
  std::string_view first(buffer.data(), first_size);
  absl::StatusOr<std::unique_ptr<Module>> m =
      parseModuleInPlace(first, "in.mlir");
  REQUIRE(m.ok());
  // The module does not point into the text: overwrite it, then print.
  std::fill(buffer.begin(), buffer.end(), '#');
  std::string printed = printModule(**m);
  CHECK(printed.find("func.func @f(") != std::string::npos);
  CHECK(printed.find("@g") == std::string::npos);

  // A text cut in the middle of an op is an error at its end, not a read
  // past the NUL.
  std::string cut = "func.func @f(";
  absl::StatusOr<std::unique_ptr<Module>> bad =
      parseModuleInPlace(cut, "cut.mlir");
  REQUIRE(!bad.ok());
  CHECK(fromAbsl(bad.status().message()) ==
        "cut.mlir:1:14: error: expected type, got end of input");
}

TEST_CASE("printModule to a sink: megabyte pieces of the same text") {
  // One function of 60,000 ops: the pieces break inside its body.
  std::string text = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n";
  std::string last = "%a";
  for (int i = 0; i < 60000; ++i) {
    strAppend(text, "  %", i, " = stablehlo.abs ", last, " : tensor<4xf32>\n");
    last = strCat("%", i);
  }
  strAppend(text, "  return ", last, " : tensor<4xf32>\n}\n");
  std::unique_ptr<Module> m = testing::parseOrDie(text);
  struct Pieces : TextSink {
    std::vector<std::string> pieces;
    void write(std::string_view piece) override { pieces.emplace_back(piece); }
  } sink;
  for (bool generic : {false, true}) {
    PrintOptions options;
    options.generic = generic;
    sink.pieces.clear();
    printModule(*m, options, sink);
    std::string whole = printModule(*m, options);
    REQUIRE(whole.size() > (size_t{2} << 20));
    CHECK(sink.pieces.size() > 1);
    std::string joined;
    for (const std::string& piece : sink.pieces) joined += piece;
    CHECK(joined == whole);
    for (size_t i = 0; i + 1 < sink.pieces.size(); ++i)
      CHECK(sink.pieces[i].size() >= (size_t{1} << 20));
  }
}

TEST_CASE("splitInputFile keeps line numbers") {
  std::string text = "a\n// -----\nb\nc\n  // ----- trailing words\nd";
  std::vector<std::string> chunks = splitInputFile(text);
  REQUIRE(chunks.size() == 3);
  CHECK(chunks[0] == "a\n");
  CHECK(chunks[1] == "\n\nb\nc\n");
  CHECK(chunks[2] == "\n\n\n\n\nd\n");
  CHECK(splitInputFile("").size() == 1);
  CHECK(splitInputFile("// -----").size() == 2);
  // An error in a later chunk reports the line in the whole file.
  std::vector<std::string> parts = splitInputFile(
      "module {}\n// -----\nmodule {}\n// -----\n\"t.x\"(%v) : () -> ()\n");
  REQUIRE(parts.size() == 3);
  CHECK(parseError(parts[2]) ==
        "test.mlir:5:7: error: use of undeclared SSA value '%v'");
}

TEST_CASE("splitInputChunks gives views with their first lines") {
  std::string text = "a\n// -----\nb\nc\n  // ----- trailing words\nd";
  std::vector<InputChunk> chunks = splitInputChunks(text);
  REQUIRE(chunks.size() == 3);
  CHECK(chunks[0].text == "a\n");
  CHECK(chunks[0].first_line == 1);
  CHECK(chunks[1].text == "b\nc\n");
  CHECK(chunks[1].first_line == 3);
  CHECK(chunks[2].text == "d");
  CHECK(chunks[2].first_line == 6);
  // A chunk read with its first line reports the file's lines.
  std::vector<InputChunk> parts = splitInputChunks(
      "module {}\n// -----\nmodule {}\n// -----\n\"t.x\"(%v) : () -> ()\n");
  REQUIRE(parts.size() == 3);
  ParseOptions options;
  options.first_line = parts[2].first_line;
  absl::StatusOr<std::unique_ptr<Module>> m =
      parseModule(parts[2].text, "test.mlir", options);
  REQUIRE(!m.ok());
  CHECK(fromAbsl(m.status().message()) ==
        "test.mlir:5:7: error: use of undeclared SSA value '%v'");
}

TEST_CASE("verifyOp checks a single op") {
  std::unique_ptr<Module> m = testing::parseOrDie(
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : "
      "tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n");
  Op barrier = FuncOp(m->lookupSymbol("f")).body().front();
  CHECK(verifyOp(barrier, m->meshTable()).ok());
  barrier.setAttr("allowed_direction",
                  Attribute::of(PropagationDirection::kBoth));
  absl::Status status = verifyOp(barrier, m->meshTable());
  CHECK(std::string(fromAbsl(status.message())) ==
        "test.mlir:3:3: error: 'sdy.propagation_barrier' op cannot specify "
        "`BOTH` as the direction. Not blocking propagation direction makes "
        "the op redundant.");
  // Ops built in C++ have no position in a source: the error names the op.
  Module built;
  FuncOp f = FuncOp::create(built, "f", {}, {});
  built.body().pushBack(f.op());
  absl::Status missing_return = verifyModule(built);
  CHECK(std::string(fromAbsl(missing_return.message())) ==
        "@f: error: 'func.func' op body must end with a 'func.return'");
}

}  // namespace
}  // namespace shardkit
