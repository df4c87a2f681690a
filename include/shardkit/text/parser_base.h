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
#include <vector>

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

  // "<prefix>expected <what>, got <current token>" at the current token.
  absl::Status errorExpected(std::string_view what,
                             std::string_view prefix = {});
  // `message` at `offset`.
  absl::Status errorAt(size_t offset, std::string_view message);
  absl::Status error(std::string_view message) {
    return errorAt(tok_.offset, message);
  }
  size_t errorOffset() const { return error_offset_; }

  // More errors that go with the current one, each at its own offset. MLIR's
  // generated attribute parsers add one per enclosing parameter while a
  // failure unwinds (`failed to parse Sdy_TensorSharding parameter
  // 'dim_shardings' ...`), and the reference reports some errors without
  // stopping; readers that report every diagnostic print them after the
  // error (the module reader does). A new error drops the contexts of the
  // previous one, not the errors reported without stopping.
  struct ExtraError {
    size_t offset = 0;
    std::string message;
  };
  // Adds `message`, at the current token, to the current error.
  void addErrorContext(std::string message) {
    contexts_.push_back({tok_.offset, std::move(message)});
  }
  // An error that doesn't stop the parse.
  void addNonFatalError(size_t offset, std::string message) {
    non_fatal_.push_back({offset, std::move(message)});
  }
  // Puts `prefix` in front of every extra error (MLIR's `custom op 'x' `).
  void prefixExtraErrors(std::string_view prefix) {
    for (ExtraError& e : contexts_) e.message.insert(0, prefix);
    for (ExtraError& e : non_fatal_) e.message.insert(0, prefix);
  }
  bool hasExtraErrors() const {
    return !non_fatal_.empty() || !contexts_.empty();
  }
  // The non-fatal errors, then the current error's contexts.
  std::vector<ExtraError> extraErrors() const {
    std::vector<ExtraError> all = non_fatal_;
    all.insert(all.end(), contexts_.begin(), contexts_.end());
    return all;
  }

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
  std::vector<ExtraError> contexts_;
  std::vector<ExtraError> non_fatal_;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_PARSER_BASE_H_
