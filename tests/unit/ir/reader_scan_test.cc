// How the module reader delimits text with the one scanner
// (shardkit/text/scanner.h): regions skipped before they are parsed, dialect
// bodies kept as text, and the errors when the text does not balance.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "shardkit/asm/module_io.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseError;

TEST_CASE("the reader reports an unbalanced region with its position") {
  CHECK(parseError("\"func.func\"() ({\n  \"x.y\"() : () -> ()\n") ==
        "test.mlir:1:16: error: unbalanced '{': no matching '}'");
}

TEST_CASE("the reader reports an unterminated string in a region") {
  CHECK(parseError("\"func.func\"() ({\n  \"x.y\"() {a = \"b} : () -> ()\n})"
                   " : () -> ()\n") ==
        "test.mlir:2:16: error: unterminated string literal");
}

TEST_CASE("the reader reports a stray bracket in a dialect body") {
  CHECK(parseError("\"x.y\"() {a = #x.attr<[1, 2)>} : () -> ()\n") ==
        "test.mlir:1:27: error: unbalanced ')' in '<...>'");
}

TEST_CASE("arrows, strings and comments in dialect bodies are kept whole") {
  std::string text =
      "\"x.y\"() {a = #x.attr<(i32) -> (f32), \"s>\\\"}\" // c >\n>, "
      "b = #x.attr<[1]>} : () -> ()\n";
  auto module = parseModule(text);
  REQUIRE(module.ok());
  Op op = *(*module)->body().begin();
  CHECK(toString(op.attr("a")) == "#x.attr<(i32) -> (f32), \"s>\\\"}\">");
  CHECK(toString(op.attr("b")) == "#x.attr<[1]>");
}

TEST_CASE("parseModule takes its text by move and printModule appends") {
  std::string text =
      "module {\n  \"x.y\"() {a = #x.attr<[1, 2]>, b = #x.attr<[1, 2]>} : "
      "() -> ()\n}\n";
  auto module = parseModule(std::string(text));
  REQUIRE(module.ok());
  std::string out = "prefix\n";
  printModule(**module, {}, out);
  CHECK(out.starts_with("prefix\nmodule {"));
  CHECK(out.substr(7) == printModule(**module));
  // Equal dialect attributes read from equal text are shared.
  Op op = *(*module)->body().begin();
  CHECK(op.attr("a").identity() == op.attr("b").identity());
}

}  // namespace
}  // namespace shardkit
