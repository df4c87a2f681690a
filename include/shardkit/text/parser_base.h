// ParserBase: a token cursor over a Lexer with the small vocabulary every
// recursive-descent parser in shardkit shares (consume, expect, error).
//
// Errors are returned as absl::Status (InvalidArgument) whose message says what
// was expected and what was found; the byte offset of the offending token is
// kept in `errorOffset()` so callers can turn it into a line and column.
#ifndef SHARDKIT_TEXT_PARSER_BASE_H_
#define SHARDKIT_TEXT_PARSER_BASE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/text/lexer.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class ParserBase {
 public:
  explicit ParserBase(std::string_view buffer) : lexer_(buffer) { advance(); }

  // The current (not yet consumed) token.
  const Token& tok() const { return tok_; }
  TokenKind kind() const { return tok_.kind; }
  bool at(TokenKind k) const { return tok_.kind == k; }
  bool atKeyword(std::string_view word) const { return tok_.isKeyword(word); }
  // Consumes the current token.
  void advance() { tok_ = lexer_.next(); }
  bool consumeIf(TokenKind k) {
    if (!at(k)) return false;
    advance();
    return true;
  }
  bool consumeKeywordIf(std::string_view word) {
    if (!atKeyword(word)) return false;
    advance();
    return true;
  }
  // Consumes a token of kind `k` or fails with "expected <what>".
  absl::Status expect(TokenKind k, std::string_view what);
  absl::Status expectKeyword(std::string_view word);

  // "expected <what>, got <current token>" at the current token.
  absl::Status errorExpected(std::string_view what);
  // `message` at `offset`.
  absl::Status errorAt(size_t offset, std::string_view message);
  absl::Status error(std::string_view message) {
    return errorAt(tok_.offset, message);
  }
  size_t errorOffset() const { return error_offset_; }

  // Parses an optionally negative integer literal that fits in int64.
  absl::StatusOr<int64_t> parseInteger(std::string_view what = "integer");
  // Parses a string literal and returns its decoded value.
  absl::StatusOr<std::string> parseString(std::string_view what = "string");

  Lexer& lexer() { return lexer_; }
  std::string_view buffer() const { return lexer_.buffer(); }
  // Re-positions the cursor so that the next token is lexed from `offset`.
  void resetTo(size_t offset) {
    lexer_.resetTo(offset);
    advance();
  }
  // Formats a status of this parser as "LINE:COL: message".
  absl::Status withLineCol(const absl::Status& status) const;

 private:
  Lexer lexer_;
  Token tok_;
  size_t error_offset_ = 0;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_PARSER_BASE_H_
