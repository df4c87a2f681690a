#include "shardkit/text/parser_base.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

TEST_CASE("ParserBase: cursor, consumeIf and keywords") {
  ParserBase p("foo , bar");
  CHECK(p.atKeyword("foo"));
  CHECK_FALSE(p.atKeyword("fo"));
  CHECK(p.kind() == TokenKind::kBareIdent);
  CHECK_FALSE(p.consumeIf(TokenKind::kComma));
  CHECK(p.consumeKeywordIf("foo"));
  CHECK(p.at(TokenKind::kComma));
  CHECK(p.consumeIf(TokenKind::kComma));
  CHECK_FALSE(p.consumeKeywordIf("baz"));
  CHECK(p.tok().spelling == "bar");
  CHECK(p.tok().offset == 6);
  p.advance();
  CHECK(p.at(TokenKind::kEof));
  p.resetTo(4);
  CHECK(p.at(TokenKind::kComma));
  CHECK(p.buffer() == "foo , bar");
}

TEST_CASE("ParserBase: expect and errors carry the offset") {
  ParserBase p("{ x");
  CHECK(p.expect(TokenKind::kLBrace, "'{'").ok());
  absl::Status status = p.expect(TokenKind::kRBrace, "'}'");
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(messageOf(status) == "expected '}', got 'x'");
  CHECK(p.errorOffset() == 2);
  CHECK(messageOf(p.withLineCol(status)) == "1:3: expected '}', got 'x'");
  // The failed expect did not consume.
  CHECK(p.atKeyword("x"));
  absl::Status keyword = p.expectKeyword("y");
  CHECK(messageOf(keyword) == "expected 'y', got 'x'");
  CHECK(p.expectKeyword("x").ok());
  CHECK(messageOf(p.errorExpected("more")) ==
        "expected more, got end of input");
  CHECK(p.errorOffset() == 3);

  ParserBase lines("a\n  b");
  lines.advance();
  absl::Status at_b = lines.error("bad b");
  CHECK(messageOf(lines.withLineCol(at_b)) == "2:3: bad b");
  CHECK(lines.withLineCol(absl::OkStatus()).ok());
  absl::Status explicit_offset = lines.errorAt(0, "at start");
  CHECK(messageOf(lines.withLineCol(explicit_offset)) == "1:1: at start");
}

TEST_CASE("ParserBase::parseInteger") {
  auto parse = [](std::string_view text) {
    ParserBase p(text);
    absl::StatusOr<int64_t> value = p.parseInteger("size");
    if (value.ok()) CHECK(p.at(TokenKind::kEof));
    return value;
  };
  CHECK(*parse("42") == 42);
  CHECK(*parse("-42") == -42);
  CHECK(*parse("- 7") == -7);
  CHECK(*parse("0x1F") == 31);
  CHECK(*parse("-0x10") == -16);
  CHECK(*parse("9223372036854775807") == INT64_MAX);
  CHECK(*parse("-9223372036854775808") == INT64_MIN);
  CHECK(messageOf(parse("9223372036854775808").status()) ==
        "integer 9223372036854775808 does not fit in 64 bits");
  CHECK(messageOf(parse("0x8000000000000000").status()) ==
        "integer 0x8000000000000000 does not fit in 64 bits");
  CHECK(messageOf(parse("x").status()) == "expected size, got 'x'");
  CHECK(messageOf(parse("1.5").status()) == "expected size, got '1.5'");
  CHECK(messageOf(parse("-").status()) == "expected size, got end of input");
  CHECK(messageOf(parse("").status()) == "expected size, got end of input");
}

TEST_CASE("ParserBase::parseString") {
  ParserBase p(R"("a\"b" "\zz" c)");
  absl::StatusOr<std::string> first = p.parseString();
  REQUIRE(first.ok());
  CHECK(*first == "a\"b");
  absl::StatusOr<std::string> second = p.parseString();
  CHECK(messageOf(second.status()) ==
        R"(invalid escape sequence in string "\zz" (expected \", \\, \n, )"
        R"(\t or \ and two hex digits))");
  CHECK(p.errorOffset() == 7);
  p.advance();
  CHECK(messageOf(p.parseString("axis name").status()) ==
        "expected axis name, got 'c'");
}

}  // namespace
}  // namespace shardkit
