// The module reader's attributes: MLIR builtin attributes, the typed sdy
// attributes, and any other dialect attribute kept as normalized text.
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "shardkit/asm/op_syntax.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/stablehlo_attr_text.h"
#include "src/asm/dense_literal.h"
#include "src/asm/module_reader.h"

namespace shardkit {

namespace {

// An integer element type of a dense array: `iN` (signless), `siN`, `uiN`.
struct IntElementType {
  int width = 0;
  enum Sign { kSignless, kSigned, kUnsigned } sign = kSignless;
};

std::optional<IntElementType> intElementType(std::string_view name) {
  IntElementType type;
  if (name.starts_with("si")) {
    type.sign = IntElementType::kSigned;
    name.remove_prefix(2);
  } else if (name.starts_with("ui")) {
    type.sign = IntElementType::kUnsigned;
    name.remove_prefix(2);
  } else if (name.starts_with("i")) {
    name.remove_prefix(1);
  } else {
    return std::nullopt;
  }
  if (name.empty() || name.size() > 8 || name[0] == '0') return std::nullopt;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    type.width = type.width * 10 + (c - '0');
  }
  return type;
}

// `value` as an element of `type`, or nullopt when it does not fit (MLIR's
// rule: a signless element holds N bits or a negative value down to
// -2^(N-1), a signed one -2^(N-1) to 2^(N-1) - 1). Kept as MLIR prints it: a
// signless value sign-extended from N bits, i1 as 0 or 1. Unsigned elements
// take no negative values here.
std::optional<int64_t> storedElement(IntElementType type, int64_t value) {
  int n = type.width;
  if (n >= 64) {
    if (type.sign == IntElementType::kUnsigned && value < 0)
      return std::nullopt;
    return value;
  }
  int64_t half = int64_t{1} << (n - 1);  // 2^(N-1)
  int64_t full = int64_t{1} << n;        // 2^N
  switch (type.sign) {
    case IntElementType::kSigned:
      if (value < -half || value >= half) return std::nullopt;
      return value;
    case IntElementType::kUnsigned:
      if (value < 0 || value >= full) return std::nullopt;
      return value;
    case IntElementType::kSignless:
      if (value < -half || value >= full) return std::nullopt;
      if (n == 1) return value != 0 ? 1 : 0;
      return value >= half ? value - full : value;
  }
  return std::nullopt;
}

// The text of a StableHLO attribute as StableHLO prints it: the dimension
// numbers of dot, gather and scatter in their canonical field order, without
// empty lists and zeros. Any other text (and one these do not read) is kept.
std::string canonicalStablehloAttr(std::string_view name, std::string text) {
  if (name == "stablehlo.dot") {
    if (auto dims = parseDotDimensionNumbersAttr(text)) {
      return printDotDimensionNumbersAttr(*dims);
    }
  } else if (name == "stablehlo.gather") {
    if (auto dims = parseGatherDimensionNumbersAttr(text)) {
      return printGatherDimensionNumbersAttr(*dims);
    }
  } else if (name == "stablehlo.scatter") {
    if (auto dims = parseScatterDimensionNumbersAttr(text)) {
      return printScatterDimensionNumbersAttr(*dims);
    }
  }
  return text;
}

}  // namespace

absl::StatusOr<Attribute> ModuleReader::parseAttribute() {
  SK_RETURN_IF_ERROR(enter());
  struct Leave {
    ModuleReader* r;
    ~Leave() { r->leave(); }
  } guard{this};
  switch (p().kind()) {
    case TokenKind::kHashIdent:
      return parseDialectAttr();
    case TokenKind::kString: {
      SK_ASSIGN_OR_RETURN(std::string value, p().parseString());
      if (p().consumeIf(TokenKind::kColon))
        SK_RETURN_IF_ERROR(parseType().status());
      return Attribute::string(std::move(value));
    }
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kMinus:
      return parseNumberAttr();
    case TokenKind::kAtIdent: {
      SK_ASSIGN_OR_RETURN(std::string name, parseSymbolName("symbol"));
      // A nested reference `@a::@b` is kept as written after its '@'.
      if (p().at(TokenKind::kColon) &&
          p().lexer().peek().kind == TokenKind::kColon) {
        std::string written;
        appendSymbolRef(written, name);
        name = written.substr(1);
      }
      while (p().at(TokenKind::kColon) &&
             p().lexer().peek().kind == TokenKind::kColon) {
        p().advance();
        p().advance();
        if (!p().at(TokenKind::kAtIdent)) return p().errorExpected("symbol");
        strAppend(name, "::", p().tok().spelling);
        p().advance();
      }
      return Attribute::symbolRef(std::move(name));
    }
    case TokenKind::kLSquare: {
      // A function's argument attributes, one dictionary an argument.
      SK_ASSIGN_OR_RETURN(std::optional<Attribute> array,
                          readArrayFast(p().tok().offset));
      if (array) return *std::move(array);
      p().advance();
      std::vector<Attribute> elements;
      if (!p().consumeIf(TokenKind::kRSquare)) {
        do {
          SK_ASSIGN_OR_RETURN(Attribute element, parseAttribute());
          elements.push_back(std::move(element));
        } while (p().consumeIf(TokenKind::kComma));
        SK_RETURN_IF_ERROR(p().expect(TokenKind::kRSquare, "']'"));
      }
      return Attribute::array(std::move(elements));
    }
    case TokenKind::kLBrace:
      return parseDictAttr();
    case TokenKind::kBareIdent: {
      std::string_view word = p().tok().spelling;
      if (word == "true" || word == "false") {
        p().advance();
        return Attribute::boolean(word == "true");
      }
      if (word == "unit") {
        p().advance();
        return Attribute::unit();
      }
      if (word == "array") return parseDenseArrayAttr();
      if (word == "dense" || word == "dense_resource" || word == "sparse" ||
          word == "opaque" || word == "affine_map" || word == "affine_set" ||
          word == "strided" || word == "distinct") {
        return parseElementsAttr();
      }
      SK_ASSIGN_OR_RETURN(Type type, parseType());
      return Attribute::type(type);
    }
    case TokenKind::kBangIdent:
    case TokenKind::kLParen: {
      SK_ASSIGN_OR_RETURN(Type type, parseType());
      return Attribute::type(type);
    }
    default:
      return p().errorExpected("attribute value");
  }
}

absl::StatusOr<Attribute> ModuleReader::parseNumberAttr() {
  size_t start = p().tok().offset;
  bool negative = p().consumeIf(TokenKind::kMinus);
  Token number = p().tok();
  if (!number.is(TokenKind::kInteger) && !number.is(TokenKind::kFloat)) {
    return p().errorExpected("number");
  }
  p().advance();
  std::string type_text;
  if (p().consumeIf(TokenKind::kColon)) {
    SK_ASSIGN_OR_RETURN(Type type, parseType());
    type_text = type.str();
  }
  bool is_float_type =
      !type_text.empty() && (type_text[0] == 'f' || type_text == "bf16" ||
                             type_text.starts_with("tf32"));
  std::string text = strCat(negative ? "-" : "", number.spelling);
  if (number.is(TokenKind::kFloat) || is_float_type) {
    if (number.is(TokenKind::kInteger) && number.spelling.starts_with("0x")) {
      return p().errorAt(start, "hexadecimal float literals are not supported");
    }
    double value = std::strtod(text.c_str(), nullptr);
    return Attribute::floating(value, type_text.empty() ? "f64" : type_text);
  }
  int64_t value = 0;
  bool hex = number.spelling.starts_with("0x");
  std::string digits =
      hex ? strCat(negative ? "-" : "", number.spelling.substr(2)) : text;
  if (!parseInt64(digits, value, hex ? 16 : 10)) {
    // Unsigned 64-bit values beyond int64 keep their bit pattern.
    uint64_t u = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), u,
                             hex ? 16 : 10);
    if (negative || r.ec != std::errc() ||
        r.ptr != digits.data() + digits.size()) {
      return p().errorAt(start, strCat("integer ", text, " is out of range"));
    }
    value = static_cast<int64_t>(u);
  }
  return Attribute::integer(value, type_text.empty() ? "i64" : type_text);
}

absl::StatusOr<std::vector<NamedAttribute>>
ModuleReader::parseDictEntriesUncached() {
  std::vector<NamedAttribute> entries;
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kLBrace, "'{'"));
  if (p().consumeIf(TokenKind::kRBrace)) return entries;
  absl::flat_hash_set<std::string> names;
  do {
    NamedAttribute entry;
    if (p().at(TokenKind::kBareIdent)) {
      entry.name = std::string(p().tok().spelling);
      p().advance();
    } else if (p().at(TokenKind::kString)) {
      SK_ASSIGN_OR_RETURN(entry.name, p().parseString());
    } else {
      return p().errorExpected("attribute name");
    }
    // A few names are compared directly; a large dictionary gets a set.
    bool duplicate = false;
    if (entries.size() < 8) {
      for (const NamedAttribute& e : entries) {
        duplicate = duplicate || e.name == entry.name;
      }
    } else {
      if (names.empty()) {
        for (const NamedAttribute& e : entries) names.insert(e.name);
      }
      duplicate = !names.insert(entry.name).second;
    }
    if (duplicate) {
      return p().error(strCat("duplicate attribute '", entry.name, "'"));
    }
    if (p().consumeIf(TokenKind::kEqual)) {
      SK_ASSIGN_OR_RETURN(entry.value, parseAttribute());
    } else {
      entry.value = Attribute::unit();
    }
    entries.push_back(std::move(entry));
  } while (p().consumeIf(TokenKind::kComma));
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kRBrace, "'}'"));
  return entries;
}

absl::Status ModuleReader::parseOptionalAttrDict(OperationState& state) {
  if (!p().at(TokenKind::kLBrace)) return absl::OkStatus();
  SK_ASSIGN_OR_RETURN(std::vector<NamedAttribute> entries, parseDictEntries());
  return addAttributes(state, entries, p().tok().offset);
}

absl::Status ModuleReader::addAttributes(
    OperationState& state, const std::vector<NamedAttribute>& entries,
    size_t offset) {
  // `entries` has no name twice (parseDictEntries); added all at once, a
  // dictionary of any size is read in O(n log n).
  std::vector<NamedAttribute> inherent, discardable;
  for (const NamedAttribute& e : entries) {
    if (state.inherent_attrs.contains(e.name) ||
        state.discardable_attrs.contains(e.name)) {
      return p().errorAt(offset,
                         strCat("attribute '", e.name, "' is given twice"));
    }
    (state.name.isInherentAttr(e.name) ? inherent : discardable).push_back(e);
  }
  state.inherent_attrs.setAll(std::move(inherent));
  state.discardable_attrs.setAll(std::move(discardable));
  return absl::OkStatus();
}

absl::Status ModuleReader::parseOptionalProperties(OperationState& state) {
  if (!p().at(TokenKind::kLess) ||
      p().lexer().peek().kind != TokenKind::kLBrace) {
    return absl::OkStatus();
  }
  p().advance();
  SK_ASSIGN_OR_RETURN(std::vector<NamedAttribute> entries, parseDictEntries());
  state.inherent_attrs.setAll(std::move(entries));
  return p().expect(TokenKind::kGreater, "'>' after properties");
}

absl::StatusOr<Attribute> ModuleReader::parseDenseArrayAttr() {
  p().advance();  // array
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kLess, "'<'"));
  if (!p().at(TokenKind::kBareIdent)) return p().errorExpected("element type");
  std::string element(p().tok().spelling);
  std::optional<IntElementType> int_type = intElementType(element);
  if (int_type && int_type->width != 1 && int_type->width % 8 != 0) {
    return p().error("element type bitwidth must be a multiple of 8");
  }
  if (int_type && int_type->width > 64) {
    return p().error(strCat("dense arrays of '", element,
                            "' (wider than 64 bits) are not supported"));
  }
  p().advance();
  std::vector<int64_t> values;
  if (p().consumeIf(TokenKind::kColon)) {
    do {
      if (element == "i1" &&
          (p().atKeyword("true") || p().atKeyword("false"))) {
        values.push_back(p().atKeyword("true") ? 1 : 0);
        p().advance();
        continue;
      }
      if (!int_type) {
        return p().error(
            strCat("dense arrays of '", element, "' are not supported"));
      }
      size_t at = p().tok().offset;
      SK_ASSIGN_OR_RETURN(int64_t v, p().parseInteger("array element"));
      std::optional<int64_t> stored = storedElement(*int_type, v);
      if (!stored) {
        return p().errorAt(
            at, strCat("integer constant out of range for '", element, "'"));
      }
      values.push_back(*stored);
    } while (p().consumeIf(TokenKind::kComma));
  }
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kGreater, "'>'"));
  return Attribute::denseArray(std::move(element), std::move(values));
}

// An elements literal describes every element: its type has a static shape
// (MLIR's rule).
absl::Status ModuleReader::checkElementsType(Type type, size_t offset) {
  bool tensor = type.kind() == TypeKind::kRankedTensor ||
                type.kind() == TypeKind::kUnrankedTensor;
  if (tensor && !type.hasStaticShape()) {
    return p().errorAt(offset, "elements literal type must have static shape");
  }
  return absl::OkStatus();
}

absl::StatusOr<Attribute> ModuleReader::parseElementsAttr() {
  Token word = p().tok();
  size_t start = word.offset;
  p().advance();
  if (word.spelling == "dense" && p().at(TokenKind::kLess)) {
    size_t literal_start = p().tok().offset;
    SK_ASSIGN_OR_RETURN(size_t literal_end,
                        scanBalanced(literal_start, Nesting::kAllKinds));
    p().resetTo(literal_end);
    SK_RETURN_IF_ERROR(
        p().expect(TokenKind::kColon, "':' and a type after dense<...>"));
    size_t type_start = p().tok().offset;
    SK_ASSIGN_OR_RETURN(Type type, parseType());
    SK_RETURN_IF_ERROR(checkElementsType(type, type_start));
    std::string_view literal = parser_.buffer().substr(
        literal_start + 1, literal_end - literal_start - 2);
    absl::StatusOr<std::string> normalized =
        normalizeDenseLiteral(literal, type);
    if (!normalized.ok()) {
      return p().errorAt(literal_start,
                         fromAbsl(normalized.status().message()));
    }
    return Attribute::elements(strCat("dense<", *normalized, ">"), type);
  }
  size_t end = p().tok().offset;
  if (p().at(TokenKind::kLess)) {
    SK_ASSIGN_OR_RETURN(end,
                        scanBalanced(p().tok().offset, Nesting::kAllKinds));
    p().resetTo(end);
  }
  std::string text = normalizeTokens(parser_.buffer(), start, end);
  if (p().consumeIf(TokenKind::kColon)) {
    size_t type_start = p().tok().offset;
    SK_ASSIGN_OR_RETURN(Type type, parseType());
    SK_RETURN_IF_ERROR(checkElementsType(type, type_start));
    return Attribute::elements(std::move(text), type);
  }
  return Attribute::opaque(std::move(text));
}

absl::StatusOr<Attribute> ModuleReader::parseDialectAttrUncached() {
  Token token = p().tok();
  std::string_view name = token.spelling.substr(1);
  p().advance();
  if (name == "sdy.sharding") {
    SK_ASSIGN_OR_RETURN(TensorSharding s, sdy().parseTensorSharding());
    return Attribute::of(std::move(s));
  }
  if (name == "sdy.sharding_per_value") {
    SK_ASSIGN_OR_RETURN(TensorShardingPerValue s,
                        sdy().parseTensorShardingPerValue());
    return Attribute::of(std::move(s));
  }
  if (name == "sdy.op_sharding_rule") {
    SK_ASSIGN_OR_RETURN(OpShardingRule r, sdy().parseOpShardingRule());
    return Attribute::of(std::move(r));
  }
  if (name == "sdy.propagation_edges") {
    SK_ASSIGN_OR_RETURN(PropagationEdges e, sdy().parsePropagationEdges());
    return Attribute::of(std::move(e));
  }
  if (name == "sdy.mesh") {
    SK_ASSIGN_OR_RETURN(Mesh m, sdy().parseMesh());
    return Attribute::of(std::move(m));
  }
  // `#sdy<kind ...>`: the typed sdy attributes whose body does not start
  // with '<' (what the generic form prints for the collectives' axes,
  // manual axes and propagation directions).
  if (name == "sdy" && p().at(TokenKind::kLess) &&
      p().lexer().peek().kind == TokenKind::kBareIdent) {
    std::string_view kind = p().lexer().peek().spelling;
    auto body = [&]() -> absl::StatusOr<Attribute> {
      p().advance();  // '<'
      p().advance();  // kind
      Attribute attr;
      if (kind == "manual_axes") {
        SK_ASSIGN_OR_RETURN(ManualAxes axes, sdy().parseManualAxes());
        attr = Attribute::of(std::move(axes));
      } else if (kind == "axis_ref_list") {
        SK_ASSIGN_OR_RETURN(AxisRefVector axes, sdy().parseAxisRefList());
        attr = Attribute::of(AxisRefList(std::move(axes)));
      } else if (kind == "list_of_axis_ref_lists") {
        SK_ASSIGN_OR_RETURN(ListOfAxisRefLists lists,
                            sdy().parseListOfAxisRefLists());
        attr = Attribute::of(std::move(lists));
      } else if (kind == "all_to_all_param_list") {
        SK_ASSIGN_OR_RETURN(AllToAllParamList params,
                            sdy().parseAllToAllParamList());
        attr = Attribute::of(std::move(params));
      } else {
        SK_ASSIGN_OR_RETURN(PropagationDirection d,
                            sdy().parsePropagationDirection());
        attr = Attribute::of(d);
      }
      SK_RETURN_IF_ERROR(p().expect(TokenKind::kGreater, "'>'"));
      return attr;
    };
    bool known = kind == "manual_axes" || kind == "axis_ref_list" ||
                 kind == "list_of_axis_ref_lists" ||
                 kind == "all_to_all_param_list" ||
                 kind == "propagation_direction";
    if (known) return body();
  }
  // A dialect that registered its attribute syntax reads it.
  if (size_t dot = name.find('.'); dot != std::string_view::npos) {
    const DialectTextSyntax* syntax =
        findDialectTextSyntax(name.substr(0, dot));
    if (syntax && syntax->attribute) return syntax->attribute(p(), name);
  }
  // Any other dialect attribute: its text, with MLIR's spacing.
  size_t end = token.offset + token.spelling.size();
  std::string_view buffer = parser_.buffer();
  if (end >= buffer.size() || buffer[end] != '<') {
    auto alias = attr_aliases_.find(toAbsl(token.spelling));
    if (alias != attr_aliases_.end()) return alias->second;
    // Without a dialect (no '.') and without `<...>` it can only be an alias.
    if (name.find('.') == std::string_view::npos) {
      return p().errorAt(token.offset,
                         strCat("undefined symbol alias id '", name, "'"));
    }
  }
  if (end < buffer.size() && buffer[end] == '<') {
    SK_ASSIGN_OR_RETURN(end, scanBalanced(end, Nesting::kAllKinds));
    p().resetTo(end);
  }
  return Attribute::opaque(
      canonicalStablehloAttr(name, normalizeTokens(buffer, token.offset, end)));
}

}  // namespace shardkit
