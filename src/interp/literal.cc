#include "shardkit/interp/literal.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parser_base.h"
#include "src/interp/float_bits.h"

namespace shardkit::interp {
namespace {

absl::Status literalError(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// One scalar of the literal, as read: an integer (exact, with its sign),
// a float, or a boolean.
struct Scalar {
  bool is_float = false;
  bool negative = false;
  bool hex = false;
  uint64_t magnitude = 0;  // integers and hex
  double value = 0;        // floats
};

absl::StatusOr<Scalar> readScalar(ParserBase& p) {
  Scalar s;
  s.negative = p.consumeIf(TokenKind::kMinus);
  const Token& t = p.tok();
  if (t.isKeyword("true") || t.isKeyword("false")) {
    s.magnitude = t.isKeyword("true") ? 1 : 0;
    p.advance();
    return s;
  }
  if (t.is(TokenKind::kFloat)) {
    s.is_float = true;
    std::string text(t.spelling);
    s.value = std::strtod(text.c_str(), nullptr);
    if (s.negative) s.value = -s.value;
    p.advance();
    return s;
  }
  if (!t.is(TokenKind::kInteger)) return p.errorExpected("an element value");
  std::string_view digits = t.spelling;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
    s.hex = true;
  }
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(),
                                   s.magnitude, base);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return p.error(
        strCat("integer literal '", t.spelling, "' does not fit in 64 bits"));
  }
  p.advance();
  return s;
}

// Stores `s` as element `i` of `out` (whose element type is not complex).
absl::Status storeScalar(const Scalar& s, Tensor& out, int64_t i) {
  ElementType type = out.elementType();
  if (isFloat(type)) {
    if (s.hex) {
      if (s.negative) return literalError("a float's bits cannot be negative");
      out.setFloat(i, floatFromBits(type, s.magnitude));
      return absl::OkStatus();
    }
    double v = s.is_float ? s.value : static_cast<double>(s.magnitude);
    if (!s.is_float && s.negative) v = -v;
    out.setFloat(i, v);
    return absl::OkStatus();
  }
  if (s.is_float) {
    return literalError(
        strCat("a float literal is not a value of ", toString(type)));
  }
  int bits = bitWidth(type);
  if (isBool(type)) {
    if (s.negative || s.magnitude > 1) {
      return literalError("a boolean element must be true, false, 0 or 1");
    }
    out.setInt(i, static_cast<int64_t>(s.magnitude));
    return absl::OkStatus();
  }
  // Signed types accept [-2^(n-1), 2^n) (MLIR reads a large literal as its
  // bit pattern); unsigned ones [0, 2^n).
  uint64_t limit = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  bool fits = s.negative ? isSignedInteger(type) &&
                               s.magnitude <= (uint64_t{1} << (bits - 1))
                         : s.magnitude <= limit;
  if (!fits) {
    return literalError(strCat("integer literal ", s.negative ? "-" : "",
                               s.magnitude, " does not fit in ",
                               toString(type)));
  }
  uint64_t v = s.negative ? ~s.magnitude + 1 : s.magnitude;
  out.setInt(i, static_cast<int64_t>(v));
  return absl::OkStatus();
}

// Reads one element (a scalar, or `(re, im)` for complex types) into
// element `i`.
absl::Status readElement(ParserBase& p, Tensor& out, int64_t i) {
  if (!isComplex(out.elementType())) {
    SK_ASSIGN_OR_RETURN(Scalar s, readScalar(p));
    return storeScalar(s, out, i);
  }
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLParen, "'(' of a complex value"));
  Tensor parts(partType(out.elementType()), {2});
  SK_ASSIGN_OR_RETURN(Scalar re, readScalar(p));
  SK_RETURN_IF_ERROR(storeScalar(re, parts, 0));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kComma, "','"));
  SK_ASSIGN_OR_RETURN(Scalar im, readScalar(p));
  SK_RETURN_IF_ERROR(storeScalar(im, parts, 1));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kRParen, "')'"));
  out.setComplex(i, {parts.floatAt(0), parts.floatAt(1)});
  return absl::OkStatus();
}

// Reads the (possibly nested) list of elements in order.
absl::Status readElements(ParserBase& p, Tensor& out, int64_t& next,
                          int depth) {
  if (depth > 64) return literalError("dense literal nested too deeply");
  if (p.consumeIf(TokenKind::kLSquare)) {
    if (p.consumeIf(TokenKind::kRSquare)) return absl::OkStatus();
    do {
      SK_RETURN_IF_ERROR(readElements(p, out, next, depth + 1));
    } while (p.consumeIf(TokenKind::kComma));
    return p.expect(TokenKind::kRSquare, "']'");
  }
  if (next >= out.numElements()) {
    return literalError(strCat("dense literal has more than the ",
                               out.numElements(), " elements of its type"));
  }
  return readElement(p, out, next++);
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `"0x..."`: the elements' bytes, little-endian, each element (each part of
// a complex one) in whole bytes; one element's bytes are a splat.
absl::Status readHexBlob(std::string_view text, Tensor& out) {
  if (!text.starts_with("0x") || text.size() % 2 != 0) {
    return literalError("a hexadecimal dense literal must be \"0x\" and bytes");
  }
  std::vector<uint8_t> bytes;
  for (size_t i = 2; i < text.size(); i += 2) {
    int hi = hexDigit(text[i]), lo = hexDigit(text[i + 1]);
    if (hi < 0 || lo < 0) return literalError("invalid hexadecimal digit");
    bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
  }
  ElementType part = partType(out.elementType());
  int parts = isComplex(out.elementType()) ? 2 : 1;
  size_t part_bytes = (bitWidth(part) + 7) / 8;
  size_t element_bytes = part_bytes * parts;
  size_t count = static_cast<size_t>(out.numElements());
  bool splat = bytes.size() == element_bytes;
  if (!splat && bytes.size() != element_bytes * count) {
    return literalError(strCat("hexadecimal dense literal has ", bytes.size(),
                               " bytes, expected ", element_bytes * count));
  }
  auto word = [&](size_t offset) {
    uint64_t v = 0;
    for (size_t b = 0; b < part_bytes; ++b) {
      v |= uint64_t{bytes[offset + b]} << (8 * b);
    }
    return v;
  };
  for (size_t i = 0; i < count; ++i) {
    size_t offset = splat ? 0 : i * element_bytes;
    if (parts == 2) {
      out.setComplex(i, {floatFromBits(part, word(offset)),
                         floatFromBits(part, word(offset + part_bytes))});
    } else if (isFloat(part)) {
      out.setFloat(i, floatFromBits(part, word(offset)));
    } else {
      out.setInt(i, static_cast<int64_t>(word(offset)));
    }
  }
  return absl::OkStatus();
}

void appendNested(std::string& out, const Tensor& t, size_t dim, int64_t& next,
                  int64_t max_elements) {
  if (dim == t.shape().size()) {
    if (next < max_elements) {
      out += elementText(t, next);
    } else if (next == max_elements) {
      out += "...";
    }
    ++next;
    return;
  }
  out += '[';
  for (int64_t i = 0; i < t.dim(dim); ++i) {
    if (next > max_elements) break;
    if (i) out += ", ";
    appendNested(out, t, dim + 1, next, max_elements);
  }
  out += ']';
}

}  // namespace

absl::StatusOr<TensorType> tensorTypeOf(Type type) {
  if (!type || !type.isRankedTensor()) {
    return literalError(
        strCat("the interpreter needs a ranked tensor type, got ",
               type ? type.str() : "none"));
  }
  std::optional<ElementType> element = parseElementType(type.elementType());
  if (!element) {
    return literalError(strCat("element type ", type.elementType(),
                               " is not supported by the interpreter"));
  }
  std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
  SK_RETURN_IF_ERROR(checkedElementCount(shape).status());
  return TensorType{*element, std::move(shape)};
}

absl::StatusOr<Tensor> tensorFromLiteral(std::string_view literal, Type type) {
  SK_ASSIGN_OR_RETURN(TensorType tt, tensorTypeOf(type));
  Tensor out(tt.element, tt.shape);
  if (!literal.starts_with("dense<") || !literal.ends_with(">")) {
    return literalError(strCat("unsupported elements literal '", literal, "'"));
  }
  std::string_view body = literal.substr(6, literal.size() - 7);
  ParserBase p(body);
  if (p.at(TokenKind::kEof)) {
    if (out.numElements() != 0) {
      return literalError("empty dense literal for a non-empty tensor");
    }
    return out;
  }
  if (p.at(TokenKind::kString)) {
    std::string text;
    if (!Lexer::unescape(p.tok().spelling, text)) {
      return literalError("malformed string in a dense literal");
    }
    SK_RETURN_IF_ERROR(readHexBlob(text, out));
    return out;
  }
  bool nested = p.at(TokenKind::kLSquare);
  if (!nested) {  // a splat (read even when the tensor has no elements)
    Tensor element(out.elementType(), {});
    SK_RETURN_IF_ERROR(readElement(p, element, 0));
    for (int64_t i = 0; i < out.numElements(); ++i) {
      out.copyElement(i, element, 0);
    }
  } else {
    int64_t next = 0;
    SK_RETURN_IF_ERROR(readElements(p, out, next, 0));
    if (next != out.numElements()) {
      return literalError(strCat("dense literal has ", next,
                                 " elements, its type ", out.numElements()));
    }
  }
  if (!p.at(TokenKind::kEof)) return p.errorExpected("the end of the literal");
  return out;
}

absl::StatusOr<Tensor> tensorFromAttribute(const Attribute& attr) {
  const ElementsValue* elements = attr.asElements();
  if (elements == nullptr) {
    return literalError(strCat("expected a dense elements attribute, got ",
                               attr ? toString(attr) : "nothing"));
  }
  return tensorFromLiteral(elements->literal, elements->type);
}

std::string elementText(const Tensor& t, int64_t i) {
  ElementType type = t.elementType();
  auto float_text = [](ElementType part, double v) {
    if (std::isnan(v) || std::isinf(v)) {
      int digits = (bitWidth(part) + 3) / 4;
      char buf[32];
      std::snprintf(buf, sizeof(buf), "0x%0*llX", digits,
                    static_cast<unsigned long long>(floatToBits(part, v)));
      return std::string(buf);
    }
    return formatFloat(v, toString(part));
  };
  switch (t.kind()) {
    case ElementKind::kInteger:
      if (isBool(type)) return t.intAt(i) ? "true" : "false";
      if (type == ElementType::kUI64) {
        return strCat(static_cast<uint64_t>(t.intAt(i)));
      }
      return strCat(t.intAt(i));
    case ElementKind::kFloat:
      return float_text(type, t.floatAt(i));
    case ElementKind::kComplex: {
      ElementType part = partType(type);
      return strCat("(", float_text(part, t.complexAt(i).real()), ",",
                    float_text(part, t.complexAt(i).imag()), ")");
    }
  }
  return {};
}

std::string tensorText(const Tensor& t, int64_t max_elements) {
  std::string out = "dense<";
  int64_t next = 0;
  appendNested(out, t, 0, next, max_elements);
  strAppend(out, "> : ", t.typeText());
  return out;
}

std::string indexText(absl::Span<const int64_t> index) {
  std::string out = "[";
  for (size_t i = 0; i < index.size(); ++i) {
    if (i) out += ", ";
    out += strCat(index[i]);
  }
  out += ']';
  return out;
}

}  // namespace shardkit::interp
