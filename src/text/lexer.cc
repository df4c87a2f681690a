#include "shardkit/text/lexer.h"

#include "shardkit/support/strings.h"
#include "shardkit/text/char_classes.h"
#include "shardkit/text/scanner.h"

namespace shardkit {
namespace {

bool isHexDigit(char c) {
  return isDigitChar(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hexValue(char c) {
  if (isDigitChar(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

LineCol lineColAt(std::string_view buffer, size_t offset) {
  LineCol lc;
  if (offset > buffer.size()) offset = buffer.size();
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (buffer[i] == '\n') {
      ++lc.line;
      line_start = i + 1;
    }
  }
  lc.col = static_cast<int64_t>(offset - line_start) + 1;
  return lc;
}

size_t Lexer::skipTrivia() {
  while (pos_ < buffer_.size()) {
    char c = buffer_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < buffer_.size() &&
               buffer_[pos_ + 1] == '/') {
      while (pos_ < buffer_.size() && buffer_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
  return pos_;
}

Token Lexer::peek() {
  size_t saved = pos_;
  Token token = next();
  pos_ = saved;
  return token;
}

Token Lexer::next() {
  skipTrivia();
  size_t start = pos_;
  if (pos_ >= buffer_.size()) return Token{TokenKind::kEof, {}, start};
  char c = buffer_[pos_++];
  switch (c) {
    case '(':
      return make(TokenKind::kLParen, start);
    case ')':
      return make(TokenKind::kRParen, start);
    case '[':
      return make(TokenKind::kLSquare, start);
    case ']':
      return make(TokenKind::kRSquare, start);
    case '{':
      return make(TokenKind::kLBrace, start);
    case '}':
      return make(TokenKind::kRBrace, start);
    case '<':
      return make(TokenKind::kLess, start);
    case '>':
      return make(TokenKind::kGreater, start);
    case ',':
      return make(TokenKind::kComma, start);
    case ':':
      return make(TokenKind::kColon, start);
    case '=':
      return make(TokenKind::kEqual, start);
    case '?':
      return make(TokenKind::kQuestion, start);
    case '*':
      return make(TokenKind::kStar, start);
    case '+':
      return make(TokenKind::kPlus, start);
    case '-':
      if (pos_ < buffer_.size() && buffer_[pos_] == '>') {
        ++pos_;
        return make(TokenKind::kArrow, start);
      }
      return make(TokenKind::kMinus, start);
    case '.':
      if (buffer_.substr(pos_, 2) == "..") {
        pos_ += 2;
        return make(TokenKind::kEllipsis, start);
      }
      return make(TokenKind::kError, start);
    case '"':
      return lexString(start);
    case '@':
      if (pos_ < buffer_.size() && buffer_[pos_] == '"') {
        Token s = lexString(pos_);
        if (s.kind == TokenKind::kError) return s;
        return make(TokenKind::kAtIdent, start);
      }
      return lexPrefixed(start, TokenKind::kAtIdent);
    case '%': {
      Token t = lexPrefixed(start, TokenKind::kPercentIdent);
      // `%0#1` names result 1 of `%0`.
      if (t.kind == TokenKind::kPercentIdent && pos_ < buffer_.size() &&
          buffer_[pos_] == '#' && pos_ + 1 < buffer_.size() &&
          isDigitChar(buffer_[pos_ + 1])) {
        ++pos_;
        while (pos_ < buffer_.size() && isDigitChar(buffer_[pos_])) ++pos_;
        return make(TokenKind::kPercentIdent, start);
      }
      return t;
    }
    case '#':
      return lexPrefixed(start, TokenKind::kHashIdent);
    case '!':
      return lexPrefixed(start, TokenKind::kBangIdent);
    case '^':
      return lexPrefixed(start, TokenKind::kCaretIdent);
    default:
      break;
  }
  if (isDigitChar(c)) return lexNumber(start);
  if (isIdentStart(c)) {
    while (pos_ < buffer_.size() && isIdentChar(buffer_[pos_])) ++pos_;
    return make(TokenKind::kBareIdent, start);
  }
  return make(TokenKind::kError, start);
}

Token Lexer::lexPrefixed(size_t start, TokenKind kind) {
  size_t body = pos_;
  // Two loops rather than one through a function pointer: each inlines its
  // test.
  if (kind == TokenKind::kPercentIdent || kind == TokenKind::kAtIdent) {
    while (pos_ < buffer_.size() && isSuffixIdChar(buffer_[pos_])) ++pos_;
  } else {
    while (pos_ < buffer_.size() && isIdentChar(buffer_[pos_])) ++pos_;
  }
  if (pos_ == body) return make(TokenKind::kError, start);
  return make(kind, start);
}

Token Lexer::lexNumber(size_t start) {
  if (buffer_[start] == '0' && pos_ < buffer_.size() && buffer_[pos_] == 'x' &&
      pos_ + 1 < buffer_.size() && isHexDigit(buffer_[pos_ + 1])) {
    ++pos_;
    while (pos_ < buffer_.size() && isHexDigit(buffer_[pos_])) ++pos_;
    return make(TokenKind::kInteger, start);
  }
  while (pos_ < buffer_.size() && isDigitChar(buffer_[pos_])) ++pos_;
  if (pos_ >= buffer_.size() || buffer_[pos_] != '.') {
    return make(TokenKind::kInteger, start);
  }
  ++pos_;
  while (pos_ < buffer_.size() && isDigitChar(buffer_[pos_])) ++pos_;
  if (pos_ < buffer_.size() && (buffer_[pos_] == 'e' || buffer_[pos_] == 'E')) {
    size_t exp = pos_ + 1;
    if (exp < buffer_.size() && (buffer_[exp] == '+' || buffer_[exp] == '-')) {
      ++exp;
    }
    if (exp < buffer_.size() && isDigitChar(buffer_[exp])) {
      pos_ = exp;
      while (pos_ < buffer_.size() && isDigitChar(buffer_[pos_])) ++pos_;
    }
  }
  return make(TokenKind::kFloat, start);
}

Token Lexer::lexString(size_t start) {
  size_t end = stringLiteralEnd(buffer_, start);
  if (end == std::string_view::npos) {
    pos_ = start + 1;
    return make(TokenKind::kError, start);
  }
  pos_ = end;
  return make(TokenKind::kString, start);
}

bool Lexer::unescape(std::string_view spelling, std::string& out) {
  out.clear();
  if (spelling.size() < 2) return false;
  std::string_view body = spelling.substr(1, spelling.size() - 2);
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= body.size()) return false;
    char e = body[i];
    switch (e) {
      case '"':
      case '\\':
        out += e;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      default:
        if (i + 1 < body.size() && isHexDigit(e) && isHexDigit(body[i + 1])) {
          out += static_cast<char>(hexValue(e) * 16 + hexValue(body[i + 1]));
          ++i;
        } else {
          return false;
        }
    }
  }
  return true;
}

std::string describeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEof:
      return "end of input";
    case TokenKind::kString:
      return strCat("string ", token.spelling);
    case TokenKind::kError:
      return strCat("invalid character '", token.spelling.substr(0, 1), "'");
    default:
      return strCat("'", token.spelling, "'");
  }
}

}  // namespace shardkit
