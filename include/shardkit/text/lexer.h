// A lexer for the MLIR-like text shardkit reads: sdy attributes on their own,
// and (in the ir layer) whole modules. Comments (`// ...`) are skipped.
#ifndef SHARDKIT_TEXT_LEXER_H_
#define SHARDKIT_TEXT_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class TokenKind {
  kEof,
  kError,         // an unlexable character or an unterminated string
  kBareIdent,     // foo, stablehlo.add, p1, z_8z_9
  kAtIdent,       // @name or @"quoted name"
  kPercentIdent,  // %0, %arg0, %0#1
  kHashIdent,     // #sdy.sharding
  kBangIdent,     // !stablehlo.token
  kCaretIdent,    // ^bb0
  kString,        // "text" (spelling includes the quotes)
  kInteger,       // 42, 0x1F (no sign)
  kFloat,         // 1.5, 1.0e-3 (no sign)
  kLParen,
  kRParen,
  kLSquare,
  kRSquare,
  kLBrace,
  kRBrace,
  kLess,
  kGreater,
  kComma,
  kColon,
  kEqual,
  kArrow,
  kQuestion,
  kStar,
  kPlus,
  kMinus,
  kEllipsis,
};

// A token is a view into the lexed buffer plus its byte offset.
struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string_view spelling;
  size_t offset = 0;

  bool is(TokenKind k) const { return kind == k; }
  bool isKeyword(std::string_view word) const {
    return kind == TokenKind::kBareIdent && spelling == word;
  }
};

// A 1-based line and column.
struct LineCol {
  int64_t line = 1;
  int64_t col = 1;
};

// Turns a byte offset of `buffer` into a line and column.
LineCol lineColAt(std::string_view buffer, size_t offset);

class Lexer {
 public:
  explicit Lexer(std::string_view buffer) : buffer_(buffer) {}

  // Lexes and returns the next token.
  Token next();
  // Returns the next token without consuming it.
  Token peek();

  std::string_view buffer() const { return buffer_; }
  // The offset where the next token's lexing starts.
  size_t position() const { return pos_; }
  // Moves the lexer to `offset` (e.g. to re-lex after a token).
  void resetTo(size_t offset) { pos_ = offset; }
  // Skips whitespace and comments; returns the new position.
  size_t skipTrivia();

  // The string value of a kString token with escapes decoded (`\"`, `\\`,
  // `\n`, `\t`, and `\XX` hex). Returns false on a malformed escape.
  static bool unescape(std::string_view spelling, std::string& out);

 private:
  Token make(TokenKind kind, size_t start) {
    return Token{kind, buffer_.substr(start, pos_ - start), start};
  }
  Token lexNumber(size_t start);
  Token lexString(size_t start);
  Token lexPrefixed(size_t start, TokenKind kind);

  std::string_view buffer_;
  size_t pos_ = 0;
};

// A short human name of a token for messages: `'}'`, `string "x"`, `end of
// input`.
std::string describeToken(const Token& token);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_LEXER_H_
