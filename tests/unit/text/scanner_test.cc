// The one scanner (shardkit/text/scanner.h): brackets, strings, arrows and
// top-level commas, read the same way by every caller.
#include "shardkit/text/scanner.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/text/lexer.h"

namespace shardkit {
namespace {

constexpr size_t npos = std::string_view::npos;

size_t endOf(std::string_view text, Nesting nesting = Nesting::kAllKinds) {
  return scanBrackets(text, 0, nesting).end;
}

std::vector<std::string> split(std::string_view text) {
  absl::StatusOr<std::vector<std::string_view>> parts = splitTopLevel(text);
  INFO(text);
  if (!parts.ok()) FAIL(std::string(parts.status().message()));
  return {parts->begin(), parts->end()};
}

std::string splitError(std::string_view text) {
  absl::StatusOr<std::vector<std::string_view>> parts = splitTopLevel(text);
  return parts.ok() ? "<ok>" : std::string(parts.status().message());
}

TEST_CASE("a region scan ends at its closing brace") {
  std::string_view text = "{ %0 = \"a.b\"() : () -> () } tail";
  CHECK(endOf(text, Nesting::kOwnKind) == text.find('}') + 1);
  CHECK(endOf(text) == text.find('}') + 1);
}

TEST_CASE("brackets in strings and comments do not count") {
  // A string with an escaped quote and brackets inside, and a comment.
  std::string_view text = "{ \"}\" // } here\n \"\\\"}>)\" } x";
  CHECK(endOf(text, Nesting::kOwnKind) == text.rfind('}') + 1);
  CHECK(endOf(text) == text.rfind('}') + 1);
  std::string_view escaped_backslash = "<\"a\\\\\" >";  // "a\\" then '>'
  CHECK(endOf(escaped_backslash) == escaped_backslash.size());
}

TEST_CASE("an arrow inside <...> never closes it") {
  std::string_view rule = "<([i, j])->([i]) {i=2, j=4}> rest";
  CHECK(endOf(rule) == rule.find('>', rule.find('}')) + 1);
  std::string_view type = "<(i32) -> (f32), x> y";
  CHECK(endOf(type) == type.find(" y"));
  // `%a->` lexes as the id `%a-` and a '>' that closes the body.
  CHECK(endOf("<%a->b") == 5);
}

TEST_CASE("long regions are scanned past many plain bytes") {
  std::string body(1000, 'x');
  std::string text = "{" + body + "{" + body + "}" + body + "}";
  std::vector<BracketPair> pairs;
  ScanResult scan = scanBrackets(text, 0, Nesting::kOwnKind,
                                 [&](BracketPair p) { pairs.push_back(p); });
  CHECK(scan.end == text.size());
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].open == 1001);  // innermost first
  CHECK(pairs[0].end == 2003);
  CHECK(pairs[1].open == 0);
  // A quote or slash inside a skipped word is still seen.
  std::string quoted = "{" + body + "\"}\"" + body + "}";
  CHECK(endOf(quoted, Nesting::kOwnKind) == quoted.size());
}

TEST_CASE("an own-kind scan lets other brackets stand alone") {
  std::string_view text = "{ #a = affine_set<(d0) : (d0 - 1 >= 0)> } x";
  CHECK(endOf(text, Nesting::kOwnKind) == text.find(" x"));
  ScanResult all = scanBrackets(text, 0);
  CHECK(all.error == ScanError::kMismatched);
  CHECK(all.error_offset == text.find(">="));
  CHECK(scanErrorMessage(text, 0, all) == "unbalanced '>' in '{...}'");
}

TEST_CASE("unbalanced text gives an error with its offset") {
  ScanResult mismatched = scanBrackets("<(>)", 0);
  CHECK(mismatched.end == npos);
  CHECK(mismatched.error == ScanError::kMismatched);
  CHECK(mismatched.error_offset == 2);
  CHECK(scanErrorMessage("<(>)", 0, mismatched) == "unbalanced '>' in '<...>'");

  ScanResult unclosed = scanBrackets("x { {}", 2, Nesting::kOwnKind);
  CHECK(unclosed.error == ScanError::kUnclosed);
  CHECK(unclosed.error_offset == 2);
  CHECK(scanErrorMessage("x { {}", 2, unclosed) ==
        "unbalanced '{': no matching '}'");

  ScanResult string = scanBrackets("{ \"}", 0);
  CHECK(string.error == ScanError::kUnterminatedString);
  CHECK(string.error_offset == 2);
  CHECK(scanErrorMessage("{ \"}", 0, string) == "unterminated string literal");
  // A string literal ends at its line.
  CHECK(scanBrackets("{ \"a\nb\" }", 0).error ==
        ScanError::kUnterminatedString);
  CHECK(scanBrackets("a", 0).error == ScanError::kUnclosed);  // not a bracket
}

TEST_CASE("a string literal ends where the lexer's does") {
  for (std::string_view text :
       {"\"abc\" x", "\"a\\\"b\" x", "\"a\\\\\" x", "\"\" x", "\"a\\\n\" x"}) {
    Lexer lexer(text);
    Token token = lexer.next();
    INFO(text);
    CHECK(token.is(TokenKind::kString));
    CHECK(stringLiteralEnd(text, 0) == token.spelling.size());
  }
  CHECK(stringLiteralEnd("\"abc", 0) == npos);
  CHECK(stringLiteralEnd("\"ab\nc\"", 0) == npos);
  CHECK(stringLiteralEnd("\"ab\\", 0) == npos);
}

TEST_CASE("a list splits at its top-level commas only") {
  CHECK(split("a, \"x, y\", <b, c>, f(1, 2) -> g, [1, [2, 3]], {k = 1, j}") ==
        std::vector<std::string>{"a", "\"x, y\"", "<b, c>", "f(1, 2) -> g",
                                 "[1, [2, 3]]", "{k = 1, j}"});
  // An escaped quote does not end a string; an arrow does not close '<'.
  CHECK(split(" \"a\\\", b\" ,c ") ==
        std::vector<std::string>{"\"a\\\", b\"", "c"});
  CHECK(split("!t<(i32) -> i32, 2>, i8") ==
        std::vector<std::string>{"!t<(i32) -> i32, 2>", "i8"});
  CHECK(split("a,,b") == std::vector<std::string>{"a", "", "b"});
  CHECK(split(" \n ").empty());
}

TEST_CASE("splitting unbalanced text is an error with its offset") {
  CHECK(splitError("a, b)") == "offset 4: unbalanced ')'");
  CHECK(splitError("[a, (b") == "offset 4: unbalanced '(': no matching ')'");
  CHECK(splitError("a, \"b") == "offset 3: unterminated string literal");
  CHECK(splitError("<a>, (b]") == "offset 7: unbalanced ']'");
}

TEST_CASE("nested dialect attributes are one part each") {
  std::string_view text =
      "mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = \"z\", "
      "size = 4>]>, axes = [#stablehlo.axis_ref<name = \"z>\">]";
  CHECK(split(text) ==
        std::vector<std::string>{
            "mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "
            "\"z\", size = 4>]>",
            "axes = [#stablehlo.axis_ref<name = \"z>\">]"});
}

}  // namespace
}  // namespace shardkit
