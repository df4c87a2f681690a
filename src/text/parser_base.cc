#include "shardkit/text/parser_base.h"

#include "shardkit/support/strings.h"

namespace shardkit {

absl::Status ParserBase::expect(TokenKind k, std::string_view what) {
  if (consumeIf(k)) return absl::OkStatus();
  return errorExpected(what);
}

absl::Status ParserBase::expectKeyword(std::string_view word) {
  if (consumeKeywordIf(word)) return absl::OkStatus();
  return errorExpected(strCat("'", word, "'"));
}

absl::Status ParserBase::errorExpected(std::string_view what,
                                       std::string_view prefix) {
  return errorAt(tok_.offset, strCat(prefix, "expected ", what, ", got ",
                                     describeToken(tok_)));
}

absl::Status ParserBase::errorAt(size_t offset, std::string_view message) {
  error_offset_ = offset;
  contexts_.clear();
  return absl::InvalidArgumentError(toAbsl(message));
}

absl::StatusOr<int64_t> ParserBase::parseInteger(std::string_view what) {
  size_t start = tok_.offset;
  bool negative = consumeIf(TokenKind::kMinus);
  if (!at(TokenKind::kInteger)) return errorExpected(what);
  std::string_view digits = tok_.spelling;
  bool hex = digits.size() > 2 && digits[1] == 'x';
  std::string text =
      strCat(negative ? "-" : "", hex ? digits.substr(2) : digits);
  int64_t value = 0;
  bool ok = parseInt64(text, value, hex ? 16 : 10);
  if (!ok) {
    return errorAt(start, strCat("integer ", negative ? "-" : "", digits,
                                 " does not fit in 64 bits"));
  }
  advance();
  return value;
}

absl::StatusOr<std::string> ParserBase::parseString(std::string_view what) {
  if (!at(TokenKind::kString)) return errorExpected(what);
  std::string value;
  if (!Lexer::unescape(tok_.spelling, value)) {
    return error(strCat("invalid escape sequence in string ", tok_.spelling,
                        " (expected \\\", \\\\, \\n, \\t or \\ and two hex "
                        "digits)"));
  }
  advance();
  return value;
}

absl::Status ParserBase::withLineCol(const absl::Status& status) const {
  if (status.ok()) return status;
  LineCol lc = lineColAt(buffer(), error_offset_);
  return absl::Status(status.code(), strCat(lc.line, ":", lc.col, ": ",
                                            fromAbsl(status.message())));
}

}  // namespace shardkit
