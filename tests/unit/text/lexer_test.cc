#include "shardkit/text/lexer.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/text/source_lines.h"

namespace shardkit {
namespace {

struct Lexed {
  TokenKind kind;
  std::string spelling;
  size_t offset;
  bool operator==(const Lexed&) const = default;
};

std::vector<Lexed> lexAll(std::string_view text) {
  Lexer lexer(text);
  std::vector<Lexed> tokens;
  while (true) {
    Token t = lexer.next();
    tokens.push_back({t.kind, std::string(t.spelling), t.offset});
    if (t.is(TokenKind::kEof)) break;
  }
  return tokens;
}

std::vector<TokenKind> kinds(std::string_view text) {
  std::vector<TokenKind> out;
  for (const Lexed& t : lexAll(text)) out.push_back(t.kind);
  return out;
}

using K = TokenKind;

TEST_CASE("Lexer: punctuation") {
  CHECK(kinds("()[]{}<>,:=?*+-->...") ==
        std::vector<K>{K::kLParen, K::kRParen, K::kLSquare, K::kRSquare,
                       K::kLBrace, K::kRBrace, K::kLess, K::kGreater, K::kComma,
                       K::kColon, K::kEqual, K::kQuestion, K::kStar, K::kPlus,
                       K::kMinus, K::kArrow, K::kEllipsis, K::kEof});
  // `0->1`: the integer ends before the arrow.
  CHECK(lexAll("0->1") == std::vector<Lexed>{{K::kInteger, "0", 0},
                                             {K::kArrow, "->", 1},
                                             {K::kInteger, "1", 3},
                                             {K::kEof, "", 4}});
}

TEST_CASE("Lexer: identifiers of every prefix") {
  CHECK(lexAll("p1 z_8z_9 stablehlo.add @m @\"q m\" %0#1 %arg-0 #sdy.sharding "
               "!t ^bb0") ==
        std::vector<Lexed>{{K::kBareIdent, "p1", 0},
                           {K::kBareIdent, "z_8z_9", 3},
                           {K::kBareIdent, "stablehlo.add", 10},
                           {K::kAtIdent, "@m", 24},
                           {K::kAtIdent, "@\"q m\"", 27},
                           {K::kPercentIdent, "%0#1", 34},
                           {K::kPercentIdent, "%arg-0", 39},
                           {K::kHashIdent, "#sdy.sharding", 46},
                           {K::kBangIdent, "!t", 60},
                           {K::kCaretIdent, "^bb0", 63},
                           {K::kEof, "", 67}});
  // A prefix with nothing after it is an error token.
  CHECK(kinds("@ ") == std::vector<K>{K::kError, K::kEof});
  CHECK(kinds("#") == std::vector<K>{K::kError, K::kEof});
}

TEST_CASE("Lexer: numbers") {
  CHECK(lexAll("42 0x1F 1.5 2.0e-3 7.") ==
        std::vector<Lexed>{{K::kInteger, "42", 0},
                           {K::kInteger, "0x1F", 3},
                           {K::kFloat, "1.5", 8},
                           {K::kFloat, "2.0e-3", 12},
                           {K::kFloat, "7.", 19},
                           {K::kEof, "", 21}});
  // `0x` without hex digits is the integer 0 followed by an identifier.
  CHECK(lexAll("0xg") == std::vector<Lexed>{{K::kInteger, "0", 0},
                                            {K::kBareIdent, "xg", 1},
                                            {K::kEof, "", 3}});
}

TEST_CASE("Lexer: strings and errors") {
  CHECK(lexAll(R"("a\"b" "")") ==
        std::vector<Lexed>{{K::kString, R"("a\"b")", 0},
                           {K::kString, R"("")", 7},
                           {K::kEof, "", 9}});
  // Unterminated (also by a newline): one error token at the quote, then
  // lexing resumes after it.
  std::vector<Lexed> unterminated = lexAll("\"ab");
  REQUIRE(unterminated.size() == 3);
  CHECK(unterminated[0] == Lexed{K::kError, "\"", 0});
  CHECK(unterminated[1] == Lexed{K::kBareIdent, "ab", 1});
  CHECK(kinds("\"a\nb\"")[0] == K::kError);
  CHECK(lexAll("a ; b") == std::vector<Lexed>{{K::kBareIdent, "a", 0},
                                              {K::kError, ";", 2},
                                              {K::kBareIdent, "b", 4},
                                              {K::kEof, "", 5}});
  CHECK(kinds(".x")[0] == K::kError);
  CHECK(kinds("@\"unterminated")[0] == K::kError);
}

TEST_CASE("Lexer: whitespace and comments are skipped") {
  CHECK(lexAll(" \t\r\n// comment, {\"x\"}\n  x // trailing") ==
        std::vector<Lexed>{{K::kBareIdent, "x", 24}, {K::kEof, "", 37}});
  CHECK(kinds("/x")[0] == K::kError);
}

TEST_CASE("Lexer: peek, position and resetTo") {
  Lexer lexer("a  b");
  CHECK(lexer.peek().spelling == "a");
  CHECK(lexer.position() == 0);
  CHECK(lexer.next().spelling == "a");
  CHECK(lexer.position() == 1);
  CHECK(lexer.skipTrivia() == 3);
  CHECK(lexer.next().spelling == "b");
  lexer.resetTo(0);
  CHECK(lexer.next().spelling == "a");
  CHECK(lexer.buffer() == "a  b");
}

TEST_CASE("lineColAt: 1-based lines and columns") {
  std::string_view text = "ab\ncd\n\nx";
  CHECK(lineColAt(text, 0).line == 1);
  CHECK(lineColAt(text, 0).col == 1);
  CHECK(lineColAt(text, 1).col == 2);
  CHECK(lineColAt(text, 3).line == 2);
  CHECK(lineColAt(text, 3).col == 1);
  CHECK(lineColAt(text, 4).col == 2);
  CHECK(lineColAt(text, 7).line == 4);
  CHECK(lineColAt(text, 7).col == 1);
  // Past the end clamps to the end.
  CHECK(lineColAt(text, 100).line == 4);
  CHECK(lineColAt(text, 100).col == 2);
}

TEST_CASE(
    "SourceLines: the line and column lineColAt gives, from line starts") {
  for (std::string_view text :
       {std::string_view(""), std::string_view("\n"), std::string_view("ab"),
        std::string_view("ab\ncd\n\nx"), std::string_view("\n\nab\n")}) {
    SourceLines lines(text);
    CHECK(lines.textSize() == text.size());
    for (size_t offset = 0; offset <= text.size() + 2; ++offset) {
      LineCol want = lineColAt(text, offset);
      LineCol got = lines.lineColAt(offset);
      INFO("text \"" << text << "\" offset " << offset);
      CHECK(got.line == want.line);
      CHECK(got.col == want.col);
    }
  }
  CHECK(SourceLines("a\nb\n").numLines() == 3);
}

TEST_CASE("Lexer::unescape") {
  std::string out;
  CHECK(Lexer::unescape(R"("plain")", out));
  CHECK(out == "plain");
  CHECK(Lexer::unescape(R"("q\"b\\n\n\t\41\c3\A9")", out));
  CHECK(out == "q\"b\\n\n\tA\xC3\xA9");
  CHECK(Lexer::unescape(R"("")", out));
  CHECK(out.empty());
  CHECK_FALSE(Lexer::unescape(R"("\q")", out));
  CHECK_FALSE(Lexer::unescape(R"("\4")", out));
  CHECK_FALSE(Lexer::unescape(R"("\")", out));
  CHECK_FALSE(Lexer::unescape("\"", out));
}

TEST_CASE("describeToken") {
  CHECK(describeToken(Token{K::kEof, "", 0}) == "end of input");
  CHECK(describeToken(Token{K::kString, "\"x\"", 0}) == "string \"x\"");
  CHECK(describeToken(Token{K::kError, ";", 0}) == "invalid character ';'");
  CHECK(describeToken(Token{K::kBareIdent, "abc", 0}) == "'abc'");
  CHECK(describeToken(Token{K::kRBrace, "}", 0}) == "'}'");
}

}  // namespace
}  // namespace shardkit
