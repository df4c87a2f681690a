// The reader's character-level bracket scan (src/ir/bracket_scan.h).
#include "src/ir/bracket_scan.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/module_io.h"

namespace shardkit {
namespace {

constexpr size_t npos = std::string_view::npos;

size_t scan(std::string_view text, char open, char close, bool nest_all,
            std::vector<BracketPair>* pairs = nullptr) {
  return scanBracketsFast(text, 0, open, close, nest_all, [&](BracketPair p) {
    if (pairs) pairs->push_back(p);
  });
}

TEST_CASE("a region scan ends at its closing brace") {
  std::string_view text = "{ %0 = \"a.b\"() : () -> () } tail";
  CHECK(scan(text, '{', '}', false) == text.find('}') + 1);
}

TEST_CASE("braces in strings and comments do not count") {
  std::string_view text = "{ \"}\" // } here\n \"\\\"}\" } x";
  CHECK(scan(text, '{', '}', false) == text.rfind('}') + 1);
}

TEST_CASE("long regions are scanned past many plain bytes") {
  std::string body(1000, 'x');
  std::string text = "{" + body + "{" + body + "}" + body + "}";
  std::vector<BracketPair> pairs;
  CHECK(scan(text, '{', '}', false, &pairs) == text.size());
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].open == 1001);  // innermost first
  CHECK(pairs[0].end == 2003);
  CHECK(pairs[1].open == 0);
}

TEST_CASE("a dialect body nests every bracket kind and skips arrows") {
  std::string_view rule = "<([i, j])->([i]) {i=2, j=4}> rest";
  CHECK(scan(rule, '<', '>', true) == rule.find('>', rule.find('}')) + 1);
  // `%a->` lexes as the id `%a-` and a '>' that closes the body.
  std::string_view id = "<%a->b";
  CHECK(scan(id, '<', '>', true) == 5);
}

TEST_CASE("text that is not plainly balanced gives npos") {
  CHECK(scan("<(>)", '<', '>', true) == npos);           // mismatched
  CHECK(scan("{ {}", '{', '}', false) == npos);          // unclosed
  CHECK(scan("{ \"}", '{', '}', false) == npos);         // unterminated string
  CHECK(scan("{ \"a\nb\" }", '{', '}', false) == npos);  // string over lines
}

TEST_CASE("the reader reports an unbalanced region with its position") {
  auto module =
      parseModule("\"func.func\"() ({\n  \"x.y\"() : () -> ()\n", "f.mlir");
  REQUIRE_FALSE(module.ok());
  CHECK_THAT(std::string(module.status().message()),
             Catch::Contains("f.mlir:1:16: error:"));
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
