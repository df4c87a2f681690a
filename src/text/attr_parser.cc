#include "shardkit/text/attr_parser.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/text/attr_fast_path.h"
#include "src/text/delimited_list.h"

namespace shardkit {
namespace {

// Factor symbols `i`..`z` are indices 0..17; `z_N` is 17 + N.
constexpr int64_t kLastLetterIndex = 'z' - 'i';

// The messages MLIR's generated parsers add, per parameter, to a failure
// inside it (ParserBase::addErrorContext).
constexpr std::string_view kMeshAxesContext =
    "failed to parse Sdy_Mesh parameter 'axes' which is to be a "
    "`::llvm::ArrayRef<MeshAxisAttr>`";
constexpr std::string_view kAxisNameContext =
    "failed to parse Sdy_AxisRef parameter 'name' which is to be a "
    "`::llvm::StringRef`";
constexpr std::string_view kAxisListContext =
    "failed to parse axis list which is expected to be an "
    "`ArrayRef<AxisRefAttr>`";
constexpr std::string_view kDimShardingsContext =
    "failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to "
    "be a `::llvm::ArrayRef<DimensionShardingAttr>`";
constexpr std::string_view kShardingsContext =
    "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' which "
    "is to be a `::llvm::ArrayRef<TensorShardingAttr>`";
constexpr std::string_view kDimMappingsContext =
    "failed to parse Sdy_TensorMapping parameter 'dim_mappings' which is to "
    "be a `::llvm::ArrayRef<DimMappingAttr>`";

// `status`, after adding `context` to the parser's error if it failed.
absl::Status withContext(ParserBase& p, absl::Status status,
                         std::string_view context) {
  if (!status.ok()) p.addErrorContext(std::string(context));
  return status;
}

// A `T` at `<`, read by the fast path `fast` (attr_fast_path.h) when it
// takes the text, else by `tokens()`.
template <typename T, typename Tokens>
absl::StatusOr<T> parseFastOrTokens(ParserBase& p,
                                    size_t (*fast)(std::string_view, size_t, T&,
                                                   TextEnd),
                                    Tokens&& tokens) {
  // One result, built in place and returned by every path: a sharding's
  // inline axes would otherwise be moved once more.
  absl::StatusOr<T> result(absl::in_place);
  if (p.at(TokenKind::kLess)) {
    size_t end = fast(p.buffer(), p.tok().offset, *result, TextEnd::kUnknown);
    if (end != std::string_view::npos) {
      p.resetTo(end);
      return result;
    }
  }
  result = tokens();
  return result;
}

// The token parsers of meshes and shardings: AttrParser::parseMesh and
// parseTensorSharding try the character scan first (attr_fast_path.h) and
// come here for what it does not take, errors included.
absl::StatusOr<Mesh> parseMeshTokens(ParserBase& p) {
  Mesh mesh;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  auto parse_axis = [&]() -> absl::Status {
    SK_ASSIGN_OR_RETURN(std::string name, p.parseString("string (axis name)"));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
    size_t size_offset = p.tok().offset;
    SK_ASSIGN_OR_RETURN(int64_t size, p.parseInteger("axis size"));
    if (size < 1) {
      return p.errorAt(size_offset,
                       strCat("axis size must be at least 1, got: ", size));
    }
    mesh.axes.push_back(MeshAxis{std::move(name), size});
    return absl::OkStatus();
  };
  SK_RETURN_IF_ERROR(parseSquareList(
      p, [&] { return withContext(p, parse_axis(), kMeshAxesContext); }));
  if (p.consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(p.expectKeyword("device_ids"));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
    // At least one id, as in the reference: no list is spelled by leaving
    // `device_ids` out.
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kLSquare, "'['"));
    do {
      SK_ASSIGN_OR_RETURN(int64_t id, p.parseInteger("device id"));
      mesh.device_ids.push_back(id);
    } while (p.consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kRSquare, "']'"));
  }
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  // An explicit iota order is the implicit one; the reference never prints it.
  if (!mesh.axes.empty() && mesh.hasIotaDeviceIds()) mesh.device_ids.clear();
  return mesh;
}

// `{"x", ...}` with at least one axis (replicated and unreduced axes).
absl::StatusOr<AxisRefVector> parseNonEmptyAxisRefList(ParserBase& p) {
  // Like the reference, `replicated={}` and `unreduced={}` are rejected: an
  // empty list is written by leaving the field out.
  AxisRefVector axes;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLBrace, "'{'"));
  do {
    absl::StatusOr<AxisRef> axis = AttrParser(p).parseAxisRef();
    SK_RETURN_IF_ERROR(withContext(p, axis.status(), kAxisListContext));
    axes.push_back(*std::move(axis));
  } while (p.consumeIf(TokenKind::kComma));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kRBrace, "'}'"));
  return axes;
}

// The priority `pN` spelled by `token`.
absl::StatusOr<int64_t> parsePriority(ParserBase& p, const Token& token) {
  std::string_view text = token.spelling;
  std::string_view digits = text.substr(1);
  if (text.size() < 2 || text[0] != 'p' ||
      !std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit)) {
    return p.errorAt(
        token.offset,
        strCat("expecting priority in format 'p<number>', got: ", text));
  }
  if (digits.size() > 1 && digits[0] == '0') {
    return p.errorAt(
        token.offset,
        strCat("priorities with leading zeros are not allowed, got: ", text));
  }
  int64_t priority = 0;
  if (!parseInt64(digits, priority)) {
    return p.errorAt(token.offset,
                     strCat("expecting integer priority, got: ", text,
                            " (a priority is at most 2^63-1)"));
  }
  return priority;
}

// `={"x", ...}` after `replicated`.
absl::Status parseReplicatedAxes(ParserBase& p, TensorSharding& sharding) {
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(sharding.replicated_axes, parseNonEmptyAxisRefList(p));
  return absl::OkStatus();
}

// `=max{"x", ...}` after `unreduced` (the kind may be left out: sum).
absl::Status parseUnreducedAxes(ParserBase& p, TensorSharding& sharding) {
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
  if (p.consumeKeywordIf("max")) {
    sharding.unreduced_kind = ReductionKind::kMax;
  } else if (p.consumeKeywordIf("min")) {
    sharding.unreduced_kind = ReductionKind::kMin;
  } else {
    p.consumeKeywordIf("sum");
  }
  SK_ASSIGN_OR_RETURN(sharding.unreduced_axes, parseNonEmptyAxisRefList(p));
  return absl::OkStatus();
}

absl::StatusOr<TensorSharding> parseTensorShardingTokens(ParserBase& p) {
  TensorSharding sharding;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(sharding.mesh, AttrParser(p).parseMeshOrRef());
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(parseSquareList(p, [&]() -> absl::Status {
    absl::StatusOr<DimensionSharding> dim =
        AttrParser(p).parseDimensionSharding();
    SK_RETURN_IF_ERROR(withContext(p, dim.status(), kDimShardingsContext));
    sharding.dim_shardings.push_back(*std::move(dim));
    return absl::OkStatus();
  }));
  bool seen_replicated = false;
  bool seen_unreduced = false;
  while (p.consumeIf(TokenKind::kComma)) {
    if (!seen_replicated && p.consumeKeywordIf("replicated")) {
      seen_replicated = true;
      SK_RETURN_IF_ERROR(withContext(
          p, parseReplicatedAxes(p, sharding),
          "failed to parse Sdy_TensorSharding parameter 'replicated_axes'"));
    } else if (!seen_unreduced && p.consumeKeywordIf("unreduced")) {
      seen_unreduced = true;
      SK_RETURN_IF_ERROR(withContext(
          p, parseUnreducedAxes(p, sharding),
          "failed to parse Sdy_TensorSharding parameter 'unreduced_axes'"));
    } else {
      return p.errorExpected(
          "valid named axis list after comma ('replicated={...}' or "
          "'unreduced={...}', each at most once)",
          "failed to parse Sdy_TensorSharding, ");
    }
  }
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  return sharding;
}

}  // namespace

absl::StatusOr<Mesh> AttrParser::parseMesh() {
  return parseFastOrTokens<Mesh>(p_, &fastParseMesh,
                                 [&] { return parseMeshTokens(p_); });
}

absl::StatusOr<AxisRef> AttrParser::parseAxisRef() {
  absl::StatusOr<std::string> parsed_name =
      p_.parseString("string (axis name)");
  SK_RETURN_IF_ERROR(withContext(p_, parsed_name.status(), kAxisNameContext));
  std::string name = *std::move(parsed_name);
  if (!p_.consumeIf(TokenKind::kColon)) return AxisRef(std::move(name));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kLParen, "'('"));
  SK_ASSIGN_OR_RETURN(int64_t pre_size, p_.parseInteger("sub-axis pre-size"));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kRParen, "')'"));
  SK_ASSIGN_OR_RETURN(int64_t size, p_.parseInteger("sub-axis size"));
  return AxisRef(std::move(name), pre_size, size);
}

absl::StatusOr<AxisRefVector> AttrParser::parseAxisRefList() {
  AxisRefVector axes;
  SK_RETURN_IF_ERROR(parseBraceList(p_, [&]() -> absl::Status {
    SK_ASSIGN_OR_RETURN(AxisRef axis, parseAxisRef());
    axes.push_back(std::move(axis));
    return absl::OkStatus();
  }));
  return axes;
}

absl::StatusOr<DimensionSharding> AttrParser::parseDimensionSharding() {
  DimensionSharding dim;
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kLBrace, "'{'"));
  while (!p_.consumeIf(TokenKind::kRBrace)) {
    if (!dim.axes.empty())
      SK_RETURN_IF_ERROR(p_.expect(TokenKind::kComma, "','"));
    if (p_.consumeIf(TokenKind::kQuestion)) {
      dim.is_closed = false;
      SK_RETURN_IF_ERROR(p_.expect(TokenKind::kRBrace, "'}'"));
      break;
    }
    SK_ASSIGN_OR_RETURN(AxisRef axis, parseAxisRef());
    dim.axes.push_back(std::move(axis));
  }
  if (p_.at(TokenKind::kBareIdent)) {
    Token token = p_.tok();
    p_.advance();
    SK_ASSIGN_OR_RETURN(dim.priority, parsePriority(p_, token));
  }
  return dim;
}

absl::StatusOr<MeshOrRef> AttrParser::parseMeshOrRef() {
  if (p_.at(TokenKind::kAtIdent)) {
    std::string_view spelling = p_.tok().spelling.substr(1);
    std::string name;
    if (!spelling.empty() && spelling[0] == '"') {
      if (!Lexer::unescape(spelling, name)) {
        return p_.error(strCat("invalid escape sequence in symbol name ",
                               p_.tok().spelling,
                               " (expected \\\", \\\\, \\n, \\t or \\ and two "
                               "hex digits)"));
      }
    } else {
      name = std::string(spelling);
    }
    p_.advance();
    return MeshOrRef::ref(std::move(name));
  }
  if (p_.consumeKeywordIf("mesh")) {
    SK_ASSIGN_OR_RETURN(Mesh mesh, parseMesh());
    return MeshOrRef::inlined(std::move(mesh));
  }
  return p_.errorExpected("mesh symbol '@name' or inline 'mesh<...>'");
}

absl::StatusOr<TensorSharding> AttrParser::parseTensorSharding() {
  return parseFastOrTokens<TensorSharding>(p_, &fastParseTensorSharding, [&] {
    return parseTensorShardingTokens(p_);
  });
}

absl::StatusOr<TensorShardingPerValue> AttrParser::parseTensorShardingList(
    std::string_view element_context) {
  TensorShardingPerValue result;
  SK_RETURN_IF_ERROR(parseSquareList(p_, [&]() -> absl::Status {
    // An entry may spell its attribute name: `#sdy.sharding<...>`.
    if (p_.at(TokenKind::kHashIdent)) {
      if (p_.tok().spelling != "#sdy.sharding") {
        return p_.errorExpected("'<' or '#sdy.sharding<'");
      }
      p_.advance();
    }
    absl::StatusOr<TensorSharding> sharding = parseTensorSharding();
    if (!sharding.ok() && !element_context.empty()) {
      p_.addErrorContext(std::string(element_context));
    }
    SK_RETURN_IF_ERROR(sharding.status());
    result.items.push_back(*std::move(sharding));
    return absl::OkStatus();
  }));
  return result;
}

absl::StatusOr<TensorShardingPerValue>
AttrParser::parseTensorShardingPerValue() {
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(TensorShardingPerValue result,
                      parseTensorShardingList(kShardingsContext));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kGreater, "'>'"));
  return result;
}

absl::StatusOr<int64_t> consumeFactorSymbol(ParserBase& p,
                                            std::string_view& text,
                                            size_t offset) {
  if (text.substr(0, 2) != "z_") {
    char symbol = text.front();
    if (symbol < 'i' || symbol > 'z') {
      return p.errorAt(offset, strCat("expecting symbol from 'i' to 'z'. "
                                      "Received: '",
                                      std::string(1, symbol), "'"));
    }
    text.remove_prefix(1);
    return symbol - 'i';
  }
  size_t end = 2;
  while (end < text.size() && absl::ascii_isdigit(text[end])) ++end;
  std::string_view number = text.substr(2, end - 2);
  if (number.empty()) {
    return p.errorAt(
        offset, strCat("expecting integer after 'z_'. Received: '", text, "'"));
  }
  if (number[0] == '0') {
    return p.errorAt(offset,
                     strCat("expecting positive integer without leading "
                            "zeros. Received: '",
                            number, "'"));
  }
  int64_t n = 0;
  if (!parseInt64(number, n)) {
    // The reference reports this and goes on with index 0.
    p.addNonFatalError(offset, strCat("expecting symbol index <=2^63-1. "
                                      "Received: '",
                                      number, "'"));
  }
  text.remove_prefix(end);
  // Like the reference, an index near 2^63 wraps around (to a negative
  // index, which no rule can use).
  return static_cast<int64_t>(static_cast<uint64_t>(n) + kLastLetterIndex);
}

namespace {

// A token that starts with a factor symbol (`i`, `z_3`): the symbol's factor,
// and what follows the symbol in the token (`j` of `ij`).
struct FactorToken {
  int64_t factor = 0;
  Token token;
  std::string_view rest;
};

absl::StatusOr<FactorToken> parseFactorToken(ParserBase& p) {
  if (!p.at(TokenKind::kBareIdent)) return p.errorExpected("factor symbol");
  FactorToken t;
  t.token = p.tok();
  p.advance();
  t.rest = t.token.spelling;
  SK_ASSIGN_OR_RETURN(t.factor, consumeFactorSymbol(p, t.rest, t.token.offset));
  return t;
}

// Fails unless the token is the one symbol.
absl::Status expectSingleFactorSymbol(ParserBase& p, const FactorToken& t) {
  if (t.rest.empty()) return absl::OkStatus();
  return p.errorAt(t.token.offset, strCat("expecting single factor symbol: ",
                                          t.token.spelling));
}

// The factors of one dimension, spelled together in `token` (`ij`, `z_1k`).
absl::StatusOr<std::vector<int64_t>> parseFactorSymbols(ParserBase& p,
                                                        const Token& token) {
  std::vector<int64_t> factors;
  std::string_view text = token.spelling;
  while (!text.empty()) {
    size_t offset = token.offset + (token.spelling.size() - text.size());
    SK_ASSIGN_OR_RETURN(int64_t factor, consumeFactorSymbol(p, text, offset));
    factors.push_back(factor);
  }
  return factors;
}

// `[i, jk, ]`: one tensor's factors, dimension by dimension.
absl::StatusOr<TensorMapping> parseTensorMapping(ParserBase& p) {
  TensorMapping mapping;
  // Most tensors have at most 4 dims: one allocation instead of three.
  mapping.dim_mappings.reserve(4);
  SK_RETURN_IF_ERROR(parseSquareList(p, [&]() -> absl::Status {
    // Like the reference, a dimension without symbols (`[, i]`) parses
    // as an empty mapping and is left to the verifier to reject.
    if (p.at(TokenKind::kComma) || p.at(TokenKind::kRSquare)) {
      mapping.dim_mappings.push_back(DimMapping{});
      return absl::OkStatus();
    }
    if (!p.at(TokenKind::kBareIdent)) {
      return p.errorExpected("factor symbols, ',' or ']'");
    }
    Token token = p.tok();
    p.advance();
    absl::StatusOr<std::vector<int64_t>> factors = parseFactorSymbols(p, token);
    SK_RETURN_IF_ERROR(withContext(p, factors.status(), kDimMappingsContext));
    mapping.dim_mappings.push_back(DimMapping{*std::move(factors)});
    return absl::OkStatus();
  }));
  return mapping;
}

// `([i, k], [k, j])`; `parameter` names the list in errors
// (`operand_mappings`).
absl::StatusOr<std::vector<TensorMapping>> parseTensorMappings(
    ParserBase& p, std::string_view parameter) {
  std::vector<TensorMapping> mappings;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLParen, "'('"));
  do {
    absl::StatusOr<TensorMapping> mapping = parseTensorMapping(p);
    if (!mapping.ok()) {  // the context is built only for an error
      return withContext(
          p, mapping.status(),
          strCat("failed to parse Sdy_OpShardingRule parameter '", parameter,
                 "' which is to be a `::llvm::ArrayRef<TensorMappingAttr>`"));
    }
    mappings.push_back(*std::move(mapping));
  } while (p.consumeIf(TokenKind::kComma));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kRParen, "')'"));
  return mappings;
}

// `{i=8, j=16}`, the factors in order; nothing if no `{` follows.
absl::StatusOr<std::vector<int64_t>> parseFactorSizes(ParserBase& p) {
  std::vector<int64_t> sizes;
  if (!p.at(TokenKind::kLBrace)) return sizes;
  SK_RETURN_IF_ERROR(parseBraceList(p, [&]() -> absl::Status {
    SK_ASSIGN_OR_RETURN(FactorToken t, parseFactorToken(p));
    int64_t expected = static_cast<int64_t>(sizes.size());
    if (t.factor != expected) {
      return p.errorAt(
          t.token.offset,
          strCat("expecting factor indices to be ordered like an iota "
                 "([0,1,2,...], e.g. {i=#, j=#, ...}). Expecting factor "
                 "index symbol '",
                 factorSymbol(expected), "', received: '",
                 factorSymbol(t.factor), "'"));
    }
    SK_RETURN_IF_ERROR(expectSingleFactorSymbol(p, t));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
    SK_ASSIGN_OR_RETURN(int64_t size, p.parseInteger("factor size"));
    sizes.push_back(size);
    return absl::OkStatus();
  }));
  return sizes;
}

// `={i, k}` after `reduction` and the other factor kinds.
absl::StatusOr<std::vector<int64_t>> parseFactorList(ParserBase& p) {
  std::vector<int64_t> factors;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
  auto parse_one = [&]() -> absl::Status {
    SK_ASSIGN_OR_RETURN(FactorToken t, parseFactorToken(p));
    SK_RETURN_IF_ERROR(expectSingleFactorSymbol(p, t));
    factors.push_back(t.factor);
    return absl::OkStatus();
  };
  // The braces are required: the reference reads `reduction=j` as an empty
  // list followed by a stray `j`.
  SK_RETURN_IF_ERROR(parseBraceList(p, parse_one));
  return factors;
}

}  // namespace

absl::StatusOr<OpShardingRule> AttrParser::parseOpShardingRule() {
  OpShardingRule rule;
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(rule.operand_mappings,
                      parseTensorMappings(p_, "operand_mappings"));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kArrow, "'->'"));
  SK_ASSIGN_OR_RETURN(rule.result_mappings,
                      parseTensorMappings(p_, "result_mappings"));
  SK_ASSIGN_OR_RETURN(rule.factor_sizes, parseFactorSizes(p_));
  struct FactorKind {
    std::string_view keyword;
    std::vector<int64_t>* list;
  };
  for (FactorKind kind :
       {FactorKind{"reduction", &rule.reduction_factors},
        FactorKind{"need_replication", &rule.need_replication_factors},
        FactorKind{"permutation", &rule.permutation_factors},
        FactorKind{"blocked_propagation", &rule.blocked_propagation_factors}}) {
    if (p_.consumeKeywordIf(kind.keyword)) {
      SK_ASSIGN_OR_RETURN(*kind.list, parseFactorList(p_));
    }
  }
  if (p_.consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(p_.expectKeyword("custom"));
    rule.is_custom_rule = true;
  }
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kGreater, "'>'"));
  return rule;
}

absl::StatusOr<ManualAxes> AttrParser::parseManualAxes() {
  ManualAxes axes;
  SK_RETURN_IF_ERROR(parseBraceList(p_, [&]() -> absl::Status {
    SK_ASSIGN_OR_RETURN(std::string name, p_.parseString("string (axis name)"));
    axes.items.push_back(std::move(name));
    return absl::OkStatus();
  }));
  return axes;
}

absl::StatusOr<ListOfAxisRefLists> AttrParser::parseListOfAxisRefLists() {
  ListOfAxisRefLists result;
  SK_RETURN_IF_ERROR(parseSquareListInto(p_, result.items,
                                         [&] { return parseAxisRefList(); }));
  return result;
}

absl::StatusOr<AllToAllParamList> AttrParser::parseAllToAllParamList() {
  AllToAllParamList result;
  SK_RETURN_IF_ERROR(parseSquareList(p_, [&]() -> absl::Status {
    AllToAllParam param;
    SK_ASSIGN_OR_RETURN(param.axes, parseAxisRefList());
    SK_RETURN_IF_ERROR(p_.expect(TokenKind::kColon, "':'"));
    SK_ASSIGN_OR_RETURN(param.src_dim, p_.parseInteger("source dimension"));
    SK_RETURN_IF_ERROR(p_.expect(TokenKind::kArrow, "'->'"));
    SK_ASSIGN_OR_RETURN(param.tgt_dim, p_.parseInteger("target dimension"));
    result.items.push_back(std::move(param));
    return absl::OkStatus();
  }));
  return result;
}

absl::StatusOr<PropagationDirection> AttrParser::parsePropagationDirection() {
  if (p_.at(TokenKind::kBareIdent)) {
    if (auto direction = propagationDirectionFromString(p_.tok().spelling)) {
      p_.advance();
      return *direction;
    }
  }
  return p_.errorExpected("NONE, FORWARD, BACKWARD or BOTH");
}

}  // namespace shardkit
