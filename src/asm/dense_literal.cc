#include "src/asm/dense_literal.h"

#include <cstdlib>
#include <vector>

#include "shardkit/ir/attribute.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parser_base.h"

namespace shardkit {
namespace {

constexpr int64_t kMaxLiteralDepth = 64;

bool isOpening(TokenKind k) {
  return k == TokenKind::kLess || k == TokenKind::kLSquare ||
         k == TokenKind::kLParen || k == TokenKind::kLBrace;
}
bool isClosingOrComma(TokenKind k) {
  return k == TokenKind::kGreater || k == TokenKind::kRSquare ||
         k == TokenKind::kRParen || k == TokenKind::kRBrace ||
         k == TokenKind::kComma;
}

bool isFloatType(std::string_view t) {
  return t == "f16" || t == "bf16" || t == "f32" || t == "f64" ||
         t.starts_with("f8") || t == "tf32" || t.starts_with("f4") ||
         t.starts_with("f6");
}

struct Leaves {
  std::vector<std::string> values;
  bool nested = false;  // the literal was a list
};

// Formats one scalar for the element type `element`.
absl::StatusOr<std::string> formatScalar(ParserBase& p,
                                         std::string_view element) {
  bool negative = p.consumeIf(TokenKind::kMinus);
  const Token& t = p.tok();
  std::string text;
  if (t.isKeyword("true") || t.isKeyword("false")) {
    bool value = t.isKeyword("true");
    p.advance();
    if (element == "i1") return std::string(value ? "true" : "false");
    // Spelled as a number of the element type, so it prints like one.
    if (isFloatType(element)) return formatFloat(value ? 1.0 : 0.0, element);
    return std::string(value ? "1" : "0");
  }
  if (!t.is(TokenKind::kInteger) && !t.is(TokenKind::kFloat)) {
    return p.errorExpected("element value");
  }
  text = strCat(negative ? "-" : "", t.spelling);
  bool hex = t.spelling.starts_with("0x");
  p.advance();
  if (hex) return text;
  if (isFloatType(element)) {
    return formatFloat(std::strtod(text.c_str(), nullptr), element);
  }
  if (element == "i1") {
    return std::string(text == "0" || text == "-0" ? "false" : "true");
  }
  int64_t value = 0;
  if (!parseInt64(text, value)) return text;  // keep very large integers
  return strCat(value);
}

absl::Status collect(ParserBase& p, std::string_view element, Leaves& leaves,
                     int depth) {
  if (depth > kMaxLiteralDepth)
    return p.error("dense literal nested too deeply");
  if (p.consumeIf(TokenKind::kLSquare)) {
    leaves.nested = true;
    if (p.consumeIf(TokenKind::kRSquare)) return absl::OkStatus();
    do {
      SK_RETURN_IF_ERROR(collect(p, element, leaves, depth + 1));
    } while (p.consumeIf(TokenKind::kComma));
    return p.expect(TokenKind::kRSquare, "']'");
  }
  if (p.consumeIf(TokenKind::kLParen)) {  // complex
    std::string_view part = element;
    if (part.starts_with("complex<")) {
      part = part.substr(8, part.size() - 9);
    }
    SK_ASSIGN_OR_RETURN(std::string re, formatScalar(p, part));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kComma, "','"));
    SK_ASSIGN_OR_RETURN(std::string im, formatScalar(p, part));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kRParen, "')'"));
    leaves.values.push_back(strCat("(", re, ",", im, ")"));
    return absl::OkStatus();
  }
  SK_ASSIGN_OR_RETURN(std::string leaf, formatScalar(p, element));
  leaves.values.push_back(std::move(leaf));
  return absl::OkStatus();
}

void printNested(std::string& out, const std::vector<std::string>& values,
                 absl::Span<const int64_t> shape, size_t& next) {
  if (shape.empty()) {
    out += values[next++];
    return;
  }
  out += '[';
  for (int64_t i = 0; i < shape[0]; ++i) {
    if (i) out += ", ";
    printNested(out, values, shape.subspan(1), next);
  }
  out += ']';
}

}  // namespace

// Re-spells the tokens in [start, end) with MLIR's spacing: a single space
// where the text had any, none after an opening bracket or before a closing
// one or a comma.
std::string normalizeTokens(std::string_view buffer, size_t start, size_t end) {
  Lexer lexer(buffer);
  lexer.resetTo(start);
  std::string out;
  Token previous;
  bool first = true;
  while (true) {
    size_t before = lexer.position();
    Token t = lexer.next();
    if (t.kind == TokenKind::kEof || t.offset >= end) break;
    bool had_space = t.offset > before;
    if (!first && had_space && !isOpening(previous.kind) &&
        !isClosingOrComma(t.kind)) {
      out += ' ';
    }
    out += t.spelling;
    previous = t;
    first = false;
  }
  return out;
}

absl::StatusOr<std::string> normalizeDenseLiteral(std::string_view literal,
                                                  Type type) {
  ParserBase p(literal);
  if (p.at(TokenKind::kEof)) return std::string();
  if (p.at(TokenKind::kString)) {  // hex blob
    std::string text(p.tok().spelling);
    p.advance();
    if (!p.at(TokenKind::kEof)) return p.withLineCol(p.errorExpected("'>'"));
    return text;
  }
  std::string_view element = type.elementType();
  Leaves leaves;
  absl::Status status = collect(p, element, leaves, 0);
  if (status.ok() && !p.at(TokenKind::kEof)) status = p.errorExpected("'>'");
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("invalid dense literal: ", fromAbsl(status.message()))));
  }
  const std::vector<std::string>& values = leaves.values;
  if (values.empty()) return std::string();
  bool splat = true;
  for (const std::string& v : values) splat = splat && v == values[0];
  if (splat) return values[0];
  // Reshaped to the type's dims when they hold exactly these values, up to
  // the nesting depth the reader accepts (so the output reads back).
  int64_t count = 1;
  for (int64_t d : type.shape()) {
    if (d < 0 || __builtin_mul_overflow(count, d, &count)) count = -1;
    if (count < 0) break;
  }
  if (type.hasStaticShape() && type.rank() <= kMaxLiteralDepth &&
      count == static_cast<int64_t>(values.size())) {
    std::string out;
    size_t next = 0;
    printNested(out, values, type.shape(), next);
    return out;
  }
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += values[i];
  }
  out += ']';
  return out;
}

}  // namespace shardkit
