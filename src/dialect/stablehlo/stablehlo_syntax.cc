// The pretty forms of the StableHLO ops with simple declarative formats:
// elementwise ops, `operands : functional-type` ops, and the ops with a
// keyword list (`dims = [...]`).
#include <charconv>
#include <string>

#include "shardkit/support/enum_table.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/stablehlo/stablehlo_ops_table.h"
#include "src/dialect/stablehlo/stablehlo_syntax_util.h"

namespace shardkit {
namespace hlo_syntax {

absl::StatusOr<Attribute> parseI64List(OpReader& r) {
  std::vector<int64_t> values;
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
  if (!r.p().consumeIf(TokenKind::kRSquare)) {
    do {
      SK_ASSIGN_OR_RETURN(int64_t v, r.p().parseInteger());
      values.push_back(v);
    } while (r.p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
  }
  return Attribute::i64Array(std::move(values));
}

void appendI64List(std::string& out, absl::Span<const int64_t> values) {
  // Written into a buffer and appended in pieces: most lists are a few
  // small numbers, and each append to `out` checks its capacity.
  char buffer[256];
  char* end = buffer + sizeof(buffer);
  char* p = buffer;
  *p++ = '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (end - p < 24) {  // room for ", " and any int64_t
      out.append(buffer, p);
      p = buffer;
    }
    if (i) {
      *p++ = ',';
      *p++ = ' ';
    }
    p = std::to_chars(p, end, values[i]).ptr;
  }
  *p++ = ']';
  out.append(buffer, p);
}

std::string i64ListText(const std::vector<int64_t>& values) {
  std::string out;
  appendI64List(out, values);
  return out;
}

const std::vector<int64_t>* i64ArrayOf(const Attribute& attr) {
  const DenseArrayValue* d = attr.asDenseArray();
  return d != nullptr && d->element_type == "i64" ? &d->values : nullptr;
}

bool printI64List(OpWriter& w, const Attribute& attr) {
  const std::vector<int64_t>* values = i64ArrayOf(attr);
  if (values == nullptr) return false;
  appendI64List(w.out(), *values);
  return true;
}

absl::Status parseKeywordList(OpReader& r, std::string_view keyword,
                              std::string_view attr_name,
                              OperationState& state) {
  SK_RETURN_IF_ERROR(r.p().expectKeyword(keyword));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(Attribute list, parseI64List(r));
  state.addAttr(attr_name, std::move(list));
  return absl::OkStatus();
}

absl::StatusOr<Attribute> parseEnum(OpReader& r, std::string_view kind) {
  if (!r.p().at(TokenKind::kBareIdent)) return r.p().errorExpected(kind);
  std::string text =
      strCat("#stablehlo<", kind, " ", r.p().tok().spelling, ">");
  r.p().advance();
  return Attribute::opaque(std::move(text));
}

std::string_view enumValue(const Attribute& attr) {
  const std::string* text = attr.asOpaque();
  if (!text || !text->starts_with("#stablehlo<") || !text->ends_with(">")) {
    return {};
  }
  size_t space = text->rfind(' ');
  if (space == std::string::npos) return {};
  return std::string_view(*text).substr(space + 1, text->size() - space - 2);
}

absl::Status parseSameOrFunctional(OpReader& r, OperationState& state,
                                   size_t num_results) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  std::vector<Type> inputs;
  SK_RETURN_IF_ERROR(r.parseSameOrFunctionalType(
      state.operands.size(), num_results, inputs, state.result_types));
  return r.checkOperandTypes(state.operands, inputs, offset);
}

absl::Status parseOperandsWithTrailingComma(OpReader& r,
                                            std::vector<Value>& operands) {
  while (r.p().at(TokenKind::kPercentIdent)) {
    SK_ASSIGN_OR_RETURN(Value v, r.parseOperand());
    operands.push_back(v);
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  }
  return absl::OkStatus();
}

absl::StatusOr<size_t> parseOperandsAndAttrsToColon(OpReader& r,
                                                    OperationState& state) {
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  return r.p().tok().offset;
}

absl::StatusOr<Op> parseOpOfResultType(OpReader& r, OpName name,
                                       OperandTypesFn operand_types) {
  OperationState state(name);
  SK_ASSIGN_OR_RETURN(size_t offset, parseOperandsAndAttrsToColon(r, state));
  SK_ASSIGN_OR_RETURN(Type t, r.parseType());
  SK_RETURN_IF_ERROR(r.checkOperandTypes(
      state.operands, operand_types(t, state.operands.size()), offset));
  state.result_types.push_back(t);
  return r.createOp(state);
}

}  // namespace hlo_syntax

namespace {

using namespace hlo_syntax;  // NOLINT

// `%a, %b attr-dict : t` (elementwise: unary, binary, clamp...).
absl::StatusOr<Op> parseElementwise(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(parseSameOrFunctional(r, state));
  return r.createOp(state);
}

// complex, real and imag: `%a, %b : t` names the complex type (complex's
// result, real's and imag's operand); the other side has its part type. A
// float type names every type (real and imag of floats).
absl::StatusOr<Op> parseComplexPart(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  if (r.p().lexer().peek().is(TokenKind::kLParen)) {
    SK_RETURN_IF_ERROR(parseSameOrFunctional(r, state));
    return r.createOp(state);
  }
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  SK_ASSIGN_OR_RETURN(Type complex, r.parseType());
  std::string_view element = complex.elementType();
  if (!complex.isRankedTensor() || !element.starts_with("complex<") ||
      !element.ends_with(">")) {
    // real and imag of floats: one type for all.
    std::vector<Type> inputs(state.operands.size(), complex);
    state.result_types.push_back(complex);
    SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, inputs, offset));
    return r.createOp(state);
  }
  Type part = r.module().types().rankedTensor(
      complex.shape(), element.substr(8, element.size() - 9));
  bool makes_complex = name == "stablehlo.complex";
  std::vector<Type> inputs(state.operands.size(),
                           makes_complex ? part : complex);
  state.result_types.push_back(makes_complex ? complex : part);
  SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, inputs, offset));
  return r.createOp(state);
}

bool printElementwise(OpWriter& w, Op op) {
  if (op.numResults() != 1 || op.numOperands() == 0) return false;
  w << op.name() << " ";
  w.printOperands(op);
  w.printAttrsAndSameOrFunctionalType(op, {});
  return true;
}

// `operands attr-dict : (ins) -> outs`.
absl::StatusOr<Op> parseOperandsFunctional(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

bool printOperandsFunctional(OpWriter& w, Op op) {
  w << op.name();
  if (op.numOperands()) w << " ";
  w.printOperands(op);
  w.printAttrsAndFunctionalType(op, {});
  return true;
}

// `%x, <keyword> = [..] attr-dict : <types>`.
struct KeywordListForm {
  std::string_view keyword;
  std::string_view attr;
  bool same_type;  // SameOperandsAndResultType instead of functional
};

KeywordListForm keywordListForm(std::string_view name) {
  if (name == "stablehlo.transpose") return {"dims", "permutation", false};
  if (name == "stablehlo.broadcast_in_dim")
    return {"dims", "broadcast_dimensions", false};
  if (name == "stablehlo.broadcast") return {"sizes", "broadcast_sizes", false};
  if (name == "stablehlo.reverse") return {"dims", "dimensions", true};
  return {"", "", false};
}

absl::StatusOr<Op> parseKeywordListOp(OpReader& r, OpName name) {
  KeywordListForm form = keywordListForm(name.str());
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(parseKeywordList(r, form.keyword, form.attr, state));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  if (form.same_type) {
    SK_RETURN_IF_ERROR(parseSameOrFunctional(r, state));
  } else {
    SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  }
  return r.createOp(state);
}

bool printKeywordListOp(OpWriter& w, Op op) {
  KeywordListForm form = keywordListForm(op.name());
  if (op.numOperands() != 1 || op.numResults() != 1) return false;
  const std::vector<int64_t>* values = i64ArrayOf(op.attr(form.attr));
  if (values == nullptr) return false;
  w << op.name() << " ";
  w.printOperand(op.operand(0));
  w << ", " << form.keyword << " = ";
  appendI64List(w.out(), *values);
  w.printAttrDict(op, {form.attr});
  w << " : ";
  if (form.same_type) {
    w.printSameOrFunctionalType(op);
  } else {
    w.printFunctionalType(op);
  }
  return true;
}

// `%x, <keyword> = N attr-dict : <types>` and `<keyword> = N attr-dict : t`.
struct KeywordIntForm {
  std::string_view keyword;
  std::string_view attr;
  int num_operands;  // before the keyword; -1 for a comma-terminated list
  bool result_type_only;
};

KeywordIntForm keywordIntForm(std::string_view name) {
  if (name == "stablehlo.iota") return {"dim", "iota_dimension", 0, true};
  if (name == "stablehlo.concatenate") return {"dim", "dimension", -1, false};
  if (name == "stablehlo.get_dimension_size")
    return {"dim", "dimension", 1, false};
  if (name == "stablehlo.set_dimension_size")
    return {"dim", "dimension", 2, false};
  if (name == "stablehlo.dynamic_iota")
    return {"dim", "iota_dimension", 1, false};
  return {"", "", 0, false};
}

absl::StatusOr<Op> parseKeywordIntOp(OpReader& r, OpName name) {
  KeywordIntForm form = keywordIntForm(name.str());
  OperationState state(name);
  if (form.num_operands < 0) {
    SK_RETURN_IF_ERROR(parseOperandsWithTrailingComma(r, state.operands));
  } else {
    for (int i = 0; i < form.num_operands; ++i) {
      SK_ASSIGN_OR_RETURN(Value v, r.parseOperand());
      state.operands.push_back(v);
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
    }
  }
  SK_RETURN_IF_ERROR(r.p().expectKeyword(form.keyword));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(int64_t value, r.p().parseInteger());
  state.addAttr(form.attr, Attribute::integer(value));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  if (form.result_type_only) {
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
    SK_ASSIGN_OR_RETURN(Type t, r.parseType());
    state.result_types.push_back(t);
  } else {
    SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  }
  return r.createOp(state);
}

bool printKeywordIntOp(OpWriter& w, Op op) {
  KeywordIntForm form = keywordIntForm(op.name());
  std::optional<int64_t> value = op.attr(form.attr).intValue();
  if (!value || op.numResults() != 1) return false;
  if (form.num_operands >= 0 &&
      op.numOperands() != static_cast<unsigned>(form.num_operands)) {
    return false;
  }
  w << op.name() << " ";
  for (Value v : op.operands()) {
    w.printOperand(v);
    w << ", ";
  }
  w << form.keyword << " = " << strCat(*value);
  w.printAttrDict(op, {form.attr});
  w << " : ";
  if (form.result_type_only) {
    w.printType(op.result(0).type());
  } else {
    w.printFunctionalType(op);
  }
  return true;
}

// select: `%p, %t, %f attr-dict : P, R` or functional.
absl::StatusOr<Op> parseSelect(OpReader& r, OpName name) {
  OperationState state(name);
  SK_ASSIGN_OR_RETURN(size_t offset, parseOperandsAndAttrsToColon(r, state));
  std::vector<Type> inputs;
  if (r.p().at(TokenKind::kLParen)) {
    SK_RETURN_IF_ERROR(r.parseFunctionalType(inputs, state.result_types));
  } else {
    std::vector<Type> types;
    SK_RETURN_IF_ERROR(r.parseTypeList(types));
    if (types.size() != 2) return r.p().errorAt(offset, "expected two types");
    inputs = {types[0], types[1], types[1]};
    state.result_types = {types[1]};
  }
  SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, inputs, offset));
  return r.createOp(state);
}

bool printSelect(OpWriter& w, Op op) {
  if (op.numOperands() != 3 || op.numResults() != 1) return false;
  w << "stablehlo.select ";
  w.printOperands(op);
  w.printAttrDict(op, {});
  w << " : ";
  Type result = op.result(0).type();
  if (op.operand(1).type() == result && op.operand(2).type() == result) {
    w.printType(op.operand(0).type());
    w << ", ";
    w.printType(result);
  } else {
    w.printFunctionalType(op);
  }
  return true;
}

bool printStablehloReturn(OpWriter& w, Op op) {
  return printReturnLikeOp(w, op, "stablehlo.return");
}

// `attr-dict : t` (create_token, partition_id, replica_id).
absl::StatusOr<Op> parseNullary(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  SK_ASSIGN_OR_RETURN(Type t, r.parseType());
  state.result_types.push_back(t);
  return r.createOp(state);
}

bool printNullary(OpWriter& w, Op op) {
  if (op.numOperands() != 0 || op.numResults() != 1) return false;
  w << op.name();
  w.printAttrsAndType(op, {}, op.result(0).type());
  return true;
}

// after_all: `%a, %b attr-dict : !stablehlo.token` (no operands allowed).
absl::StatusOr<Op> parseAfterAll(OpReader& r, OpName name) {
  return parseOpOfResultType(r, name, [](Type token, size_t num_operands) {
    return std::vector<Type>(num_operands, token);
  });
}

bool printAfterAll(OpWriter& w, Op op) {
  if (op.numResults() != 1) return false;
  for (Value v : op.operands()) {
    if (!(v.type() == op.result(0).type())) return false;
  }
  w << "stablehlo.after_all";
  if (op.numOperands()) w << " ";
  w.printOperands(op);
  w.printAttrsAndType(op, {}, op.result(0).type());
  return true;
}

// The parser and printer of each form (none for kNone: the op's own).
struct FormSyntax {
  OpSyntax::ParseFn parse;
  OpSyntax::PrintFn print;
};
constexpr EnumTable<ir_internal::HloForm, FormSyntax> kFormSyntaxes = {
    {FormSyntax{nullptr, nullptr},
     {parseElementwise, printElementwise},
     {parseOperandsFunctional, printOperandsFunctional},
     {parseKeywordListOp, printKeywordListOp},
     {parseKeywordIntOp, printKeywordIntOp},
     {parseNullary, printNullary}}};

}  // namespace

void ir_internal::addStablehloSyntax(ir_internal::SyntaxTable& table) {
  for (const ir_internal::StablehloOpRow& row :
       ir_internal::stablehloOpTable()) {
    const FormSyntax& form = kFormSyntaxes[row.form];
    if (form.parse) table[row.name] = {form.parse, form.print};
  }
  for (std::string_view name :
       {"stablehlo.complex", "stablehlo.real", "stablehlo.imag"}) {
    table[name] = {parseComplexPart, printElementwise};
  }
  table["stablehlo.select"] = {parseSelect, printSelect};
  table["stablehlo.after_all"] = {parseAfterAll, printAfterAll};
  table["stablehlo.return"] = {parseReturnLikeOp, printStablehloReturn};
  ir_internal::addStablehloSpecialSyntax(table);
  ir_internal::addStablehloRegionSyntax(table);
}

}  // namespace shardkit
