// The StableHLO ops whose pretty forms have their own shape: constant,
// compare, slice, pad, dynamic_slice, dot, dot_general, fft, cholesky, rng,
// rng_bit_generator, custom_call, optimization_barrier, tuple ops.
// (while, reduce and convolution are in stablehlo_syntax_regions.cc.)
#include <optional>
#include <string>
#include <utility>

#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/stablehlo/stablehlo_syntax_util.h"

namespace shardkit {
namespace {

using namespace hlo_syntax;  // NOLINT

bool isIntegerElement(std::string_view element) {
  return element.starts_with("i") || element.starts_with("ui") ||
         element.starts_with("si");
}

// ---- constant ----

absl::StatusOr<Op> parseHloConstant(OpReader& r, OpName name) {
  OperationState state(name);
  if (r.p().consumeIf(TokenKind::kLParen)) {  // `() <{value = ...}> : () -> T`
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
    SK_RETURN_IF_ERROR(r.parseOptionalProperties(state));
    SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
    return r.createOp(state);
  }
  SK_RETURN_IF_ERROR(
      r.parseConstantForm(state, "expected an elements literal"));
  return r.createOp(state);
}

bool printHloConstant(OpWriter& w, Op op) {
  const Attribute& value = op.attr("value");
  const ElementsValue* elements = value.asElements();
  if (!elements || op.numResults() != 1 || op.numOperands() != 0) return false;
  if (!(elements->type == op.result(0).type())) {
    w << "stablehlo.constant() <";
    appendAttrDict(w.out(), op.inherentAttrs().entries());
    w << ">";
    if (!op.discardableAttrs().empty()) {
      w << " ";
      appendAttrDict(w.out(), op.discardableAttrs().entries());
    }
    w << " : () -> ";
    w.printType(op.result(0).type());
    return true;
  }
  w.printConstantForm(op, "stablehlo.constant");
  return true;
}

void constantNames(Op op, std::vector<std::string>& names) {
  if (op.numResults() != 1) return;
  names.push_back(isIntegerElement(op.result(0).type().elementType()) ? "c"
                                                                      : "cst");
}

// ---- compare: `DIR, %a, %b[, TYPE] attr-dict : functional` ----

absl::StatusOr<Op> parseCompare(OpReader& r, OpName name) {
  OperationState state(name);
  SK_ASSIGN_OR_RETURN(Attribute direction,
                      parseEnum(r, "comparison_direction"));
  state.addAttr("comparison_direction", std::move(direction));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  if (r.p().consumeIf(TokenKind::kComma)) {
    SK_ASSIGN_OR_RETURN(Attribute type, parseEnum(r, "comparison_type"));
    state.addAttr("compare_type", std::move(type));
  }
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printCompare(OpWriter& w, Op op) {
  std::string_view direction = enumValue(op.attr("comparison_direction"));
  if (direction.empty() || op.numOperands() != 2) return false;
  w << "stablehlo.compare  " << direction << ", ";
  w.printOperands(op);
  if (const Attribute& type = op.attr("compare_type")) {
    std::string_view value = enumValue(type);
    if (value.empty()) return false;
    w << ",  " << value;
  }
  w.printAttrsAndFunctionalType(op, {"comparison_direction", "compare_type"});
  return true;
}

// ---- slice: `%x [s:l(:st)?, ...] attr-dict : functional` ----

absl::StatusOr<Op> parseSlice(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  std::vector<int64_t> starts, limits, strides;
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
  if (!r.p().consumeIf(TokenKind::kRSquare)) {
    do {
      SK_ASSIGN_OR_RETURN(int64_t start, r.p().parseInteger("start index"));
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
      SK_ASSIGN_OR_RETURN(int64_t limit, r.p().parseInteger("limit index"));
      int64_t stride = 1;
      if (r.p().consumeIf(TokenKind::kColon)) {
        SK_ASSIGN_OR_RETURN(stride, r.p().parseInteger("stride"));
      }
      starts.push_back(start);
      limits.push_back(limit);
      strides.push_back(stride);
    } while (r.p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
  }
  state.addAttr("start_indices", Attribute::i64Array(std::move(starts)));
  state.addAttr("limit_indices", Attribute::i64Array(std::move(limits)));
  state.addAttr("strides", Attribute::i64Array(std::move(strides)));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printSlice(OpWriter& w, Op op) {
  auto starts = op.attr("start_indices").i64ArrayValues();
  auto limits = op.attr("limit_indices").i64ArrayValues();
  auto strides = op.attr("strides").i64ArrayValues();
  if (!starts || !limits || !strides || starts->size() != limits->size() ||
      starts->size() != strides->size() || op.numOperands() != 1) {
    return false;
  }
  w << "stablehlo.slice ";
  w.printOperand(op.operand(0));
  w << " [";
  for (size_t i = 0; i < starts->size(); ++i) {
    if (i) w << ", ";
    w << strCat((*starts)[i], ":", (*limits)[i]);
    if ((*strides)[i] != 1) w << strCat(":", (*strides)[i]);
  }
  w << "]";
  w.printAttrsAndFunctionalType(op,
                                {"start_indices", "limit_indices", "strides"});
  return true;
}

// ---- pad: `%x, %pv, low = [..], high = [..], interior = [..]` ----

// Each keyword of pad's form and the attribute it spells.
constexpr std::pair<std::string_view, std::string_view> kPadLists[] = {
    {"low", "edge_padding_low"},
    {"high", "edge_padding_high"},
    {"interior", "interior_padding"}};

absl::StatusOr<Op> parsePad(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  for (auto [keyword, attr] : kPadLists) {
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
    SK_RETURN_IF_ERROR(parseKeywordList(r, keyword, attr, state));
  }
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printPad(OpWriter& w, Op op) {
  std::string lists;
  for (auto [keyword, attr] : kPadLists) {
    std::optional<std::vector<int64_t>> values = op.attr(attr).i64ArrayValues();
    if (!values) return false;
    strAppend(lists, ", ", keyword, " = ", i64ListText(*values));
  }
  if (op.numOperands() != 2) return false;
  w << "stablehlo.pad ";
  w.printOperands(op);
  w << lists;
  w.printAttrsAndFunctionalType(
      op, {"edge_padding_low", "edge_padding_high", "interior_padding"});
  return true;
}

// ---- dynamic_slice: `%x, %i0, %i1, sizes = [..]` ----

absl::StatusOr<Op> parseDynamicSlice(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(parseOperandsWithTrailingComma(r, state.operands));
  SK_RETURN_IF_ERROR(parseKeywordList(r, "sizes", "slice_sizes", state));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printDynamicSlice(OpWriter& w, Op op) {
  auto sizes = op.attr("slice_sizes").i64ArrayValues();
  if (!sizes || op.numOperands() == 0) return false;
  w << "stablehlo.dynamic_slice ";
  for (Value v : op.operands()) {
    w.printOperand(v);
    w << ", ";
  }
  w << "sizes = " << i64ListText(*sizes);
  w.printAttrsAndFunctionalType(op, {"slice_sizes"});
  return true;
}

// ---- dot / dot_general ----

absl::Status parsePrecision(OpReader& r, OperationState& state) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
  std::vector<Attribute> values;
  if (!r.p().consumeIf(TokenKind::kRSquare)) {
    do {
      SK_ASSIGN_OR_RETURN(Attribute v, parseEnum(r, "precision"));
      values.push_back(std::move(v));
    } while (r.p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
  }
  state.addAttr("precision_config", Attribute::array(std::move(values)));
  return absl::OkStatus();
}

bool printPrecision(OpWriter& w, Op op) {
  const Attribute& precision = op.attr("precision_config");
  if (!precision) return true;
  const std::vector<Attribute>* values = precision.asArray();
  if (!values) return false;
  w << ", precision = [";
  for (size_t i = 0; i < values->size(); ++i) {
    std::string_view v = enumValue((*values)[i]);
    if (v.empty()) return false;
    if (i) w << ", ";
    w << v;
  }
  w << "]";
  return true;
}

absl::StatusOr<Op> parseDot(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  if (r.p().consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(r.p().expectKeyword("precision"));
    SK_RETURN_IF_ERROR(parsePrecision(r, state));
  }
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printDot(OpWriter& w, Op op) {
  if (op.numOperands() != 2) return false;
  w << "stablehlo.dot ";
  w.printOperands(op);
  if (!printPrecision(w, op)) return false;
  w.printAttrsAndFunctionalType(op, {"precision_config"});
  return true;
}

// `[a, b] x [c, d]`.
absl::Status parseListPair(OpReader& r, std::vector<int64_t>& lhs,
                           std::vector<int64_t>& rhs) {
  SK_ASSIGN_OR_RETURN(Attribute l, parseI64List(r));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("x"));
  SK_ASSIGN_OR_RETURN(Attribute rr, parseI64List(r));
  lhs = *l.intList();
  rhs = *rr.intList();
  return absl::OkStatus();
}

absl::StatusOr<Op> parseDotGeneral(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  DotDimensionNumbers dims;
  if (r.p().consumeKeywordIf("batching_dims")) {
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
    SK_RETURN_IF_ERROR(parseListPair(r, dims.lhs_batching, dims.rhs_batching));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  }
  SK_RETURN_IF_ERROR(r.p().expectKeyword("contracting_dims"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_RETURN_IF_ERROR(
      parseListPair(r, dims.lhs_contracting, dims.rhs_contracting));
  state.addAttr("dot_dimension_numbers", toAttribute(dims));
  while (r.p().consumeIf(TokenKind::kComma)) {
    if (r.p().consumeKeywordIf("precision")) {
      SK_RETURN_IF_ERROR(parsePrecision(r, state));
    } else if (r.p().consumeKeywordIf("algorithm")) {
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
      size_t start = r.p().tok().offset;
      SK_ASSIGN_OR_RETURN(Attribute body, r.parseAttribute());
      (void)start;
      (void)body;
      return r.p().errorAt(start,
                           "dot_general 'algorithm = <...>' is not supported "
                           "in pretty form; use the generic form");
    } else {
      return r.p().errorExpected("'precision' or 'algorithm'");
    }
  }
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printDotGeneral(OpWriter& w, Op op) {
  const DotDimensionNumbers* dims =
      findDotDimensionNumbers(op.attr("dot_dimension_numbers"));
  if (!dims || op.numOperands() != 2 || op.hasAttr("algorithm")) return false;
  w << "stablehlo.dot_general ";
  w.printOperands(op);
  auto pair = [&](std::string_view keyword, const std::vector<int64_t>& lhs,
                  const std::vector<int64_t>& rhs) {
    w << keyword;
    appendI64List(w.out(), lhs);
    w << " x ";
    appendI64List(w.out(), rhs);
  };
  if (!dims->lhs_batching.empty() || !dims->rhs_batching.empty()) {
    pair(", batching_dims = ", dims->lhs_batching, dims->rhs_batching);
  }
  pair(", contracting_dims = ", dims->lhs_contracting, dims->rhs_contracting);
  if (!printPrecision(w, op)) return false;
  w.printAttrsAndFunctionalType(op,
                                {"dot_dimension_numbers", "precision_config"});
  return true;
}

// ---- fft: `%x, type = FFT, length = [..]` ----

absl::StatusOr<Op> parseFft(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("type"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(Attribute type, parseEnum(r, "fft_type"));
  state.addAttr("fft_type", std::move(type));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(parseKeywordList(r, "length", "fft_length", state));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printFft(OpWriter& w, Op op) {
  std::string_view type = enumValue(op.attr("fft_type"));
  auto length = op.attr("fft_length").i64ArrayValues();
  if (type.empty() || !length || op.numOperands() != 1) return false;
  w << "stablehlo.fft ";
  w.printOperand(op.operand(0));
  w << ", type =  " << type << ", length = " << i64ListText(*length);
  w.printAttrsAndFunctionalType(op, {"fft_type", "fft_length"});
  return true;
}

// ---- `%x[, <enum-keyword> = VALUE] ...` ops: rng_bit_generator, rng ----

struct EnumKeywordForm {
  std::string_view keyword;
  std::string_view attr;
  std::string_view kind;
};

EnumKeywordForm enumKeywordForm(std::string_view name) {
  if (name == "stablehlo.rng_bit_generator") {
    return {"algorithm", "rng_algorithm", "rng_algorithm"};
  }
  return {"distribution", "rng_distribution", "rng_distribution"};
}

absl::StatusOr<Op> parseEnumKeywordOp(OpReader& r, OpName name) {
  EnumKeywordForm form = enumKeywordForm(name.str());
  OperationState state(name);
  SK_RETURN_IF_ERROR(parseOperandsWithTrailingComma(r, state.operands));
  SK_RETURN_IF_ERROR(r.p().expectKeyword(form.keyword));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(Attribute value, parseEnum(r, form.kind));
  state.addAttr(form.attr, std::move(value));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printEnumKeywordOp(OpWriter& w, Op op) {
  EnumKeywordForm form = enumKeywordForm(op.name());
  std::string_view value = enumValue(op.attr(form.attr));
  if (value.empty() || op.numOperands() == 0) return false;
  w << op.name() << " ";
  for (Value v : op.operands()) {
    w.printOperand(v);
    w << ", ";
  }
  w << form.keyword << " =  " << value;
  w.printAttrsAndFunctionalType(op, {form.attr});
  return true;
}

void rngBitGeneratorNames(Op op, std::vector<std::string>& names) {
  if (op.numResults() == 2) names = {"output_state", "output"};
}

// ---- cholesky: `%a[, lower = true] attr-dict : t` ----

absl::StatusOr<Op> parseCholesky(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  if (r.p().consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(r.p().expectKeyword("lower"));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
    SK_ASSIGN_OR_RETURN(Attribute lower, r.parseAttribute());
    state.addAttr("lower", std::move(lower));
  }
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(parseSameOrFunctional(r, state));
  return r.createOp(state);
}

bool printCholesky(OpWriter& w, Op op) {
  if (op.numOperands() != 1) return false;
  w << "stablehlo.cholesky ";
  w.printOperand(op.operand(0));
  const Attribute& lower = op.attr("lower");
  if (lower && lower.asBool() && *lower.asBool()) w << ", lower = true";
  w.printAttrsAndSameOrFunctionalType(op, {"lower"});
  return true;
}

// ---- custom_call: `@target(%args) attr-dict : functional` ----

absl::StatusOr<Op> parseCustomCall(OpReader& r, OpName name) {
  OperationState state(name);
  if (!r.p().at(TokenKind::kAtIdent))
    return r.p().errorExpected("call target '@name'");
  std::string_view spelling = r.p().tok().spelling.substr(1);
  std::string target(spelling);
  if (spelling.starts_with("\"") && !Lexer::unescape(spelling, target)) {
    return r.p().error("invalid escape in call target");
  }
  r.p().advance();
  state.addAttr("call_target_name", Attribute::string(std::move(target)));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printCustomCall(OpWriter& w, Op op) {
  const std::string* target = op.attr("call_target_name").asString();
  if (!target) return false;
  w << "stablehlo.custom_call @";
  if (isBareIdentifier(*target)) {
    w << *target;
  } else {
    appendQuoted(w.out(), *target);
  }
  w << "(";
  w.printOperands(op);
  w << ")";
  w.printAttrsAndFunctionalType(op, {"call_target_name"});
  return true;
}

// ---- optimization_barrier: `attr-dict %a, %b : t1, t2` ----

absl::StatusOr<Op> parseOptimizationBarrier(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  if (r.p().consumeIf(TokenKind::kLParen)) {
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
    return r.createOp(state);
  }
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  std::vector<Type> types;
  SK_RETURN_IF_ERROR(r.parseTrailingOperandTypes(state.operands, types));
  state.result_types = types;
  return r.createOp(state);
}

bool printOptimizationBarrier(OpWriter& w, Op op) {
  w << "stablehlo.optimization_barrier";
  w.printAttrDict(op, {});
  if (op.numOperands() == 0) {
    w << " ()";
    return true;
  }
  w << " ";
  w.printOperands(op);
  w << " : ";
  w.printTypes(op.operandTypes());
  return true;
}

// ---- get_tuple_element: `%t[N] attr-dict : functional` ----

absl::StatusOr<Op> parseGetTupleElement(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
  SK_ASSIGN_OR_RETURN(int64_t index, r.p().parseInteger("index"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
  state.addAttr("index", Attribute::integer(index, "i32"));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printGetTupleElement(OpWriter& w, Op op) {
  std::optional<int64_t> index = op.attr("index").intValue();
  if (!index || op.numOperands() != 1) return false;
  w << "stablehlo.get_tuple_element ";
  w.printOperand(op.operand(0));
  w << "[" << strCat(*index) << "]";
  w.printAttrsAndFunctionalType(op, {"index"});
  return true;
}

// ---- tuple: `%a, %b attr-dict : tuple<...>` ----

absl::StatusOr<Op> parseTuple(OpReader& r, OpName name) {
  return parseOpOfResultType(r, name, [](Type tuple, size_t) {
    return std::vector<Type>(tuple.elements().begin(), tuple.elements().end());
  });
}

bool printTuple(OpWriter& w, Op op) {
  if (op.numResults() != 1) return false;
  w << "stablehlo.tuple ";
  w.printOperands(op);
  w.printAttrsAndType(op, {}, op.result(0).type());
  return true;
}

}  // namespace

void ir_internal::addStablehloSpecialSyntax(ir_internal::SyntaxTable& table) {
  table["stablehlo.constant"] = {parseHloConstant, printHloConstant,
                                 constantNames};
  table["stablehlo.compare"] = {parseCompare, printCompare};
  table["stablehlo.slice"] = {parseSlice, printSlice};
  table["stablehlo.pad"] = {parsePad, printPad};
  table["stablehlo.dynamic_slice"] = {parseDynamicSlice, printDynamicSlice};
  table["stablehlo.dot"] = {parseDot, printDot};
  table["stablehlo.dot_general"] = {parseDotGeneral, printDotGeneral};
  table["stablehlo.fft"] = {parseFft, printFft};
  table["stablehlo.rng_bit_generator"] = {
      parseEnumKeywordOp, printEnumKeywordOp, rngBitGeneratorNames};
  table["stablehlo.rng"] = {parseEnumKeywordOp, printEnumKeywordOp};
  table["stablehlo.cholesky"] = {parseCholesky, printCholesky};
  table["stablehlo.custom_call"] = {parseCustomCall, printCustomCall};
  table["stablehlo.optimization_barrier"] = {parseOptimizationBarrier,
                                             printOptimizationBarrier};
  table["stablehlo.get_tuple_element"] = {parseGetTupleElement,
                                          printGetTupleElement};
  table["stablehlo.tuple"] = {parseTuple, printTuple};
}

}  // namespace shardkit
