// The `check` and `interpreter` dialects: their op kinds (signatures,
// inherent attributes, verifiers) and pretty forms, as StableHLO's test and
// interpreter dialects define them.
#include <cstdlib>
#include <mutex>

#include "shardkit/asm/op_syntax.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/interp/interpreter.h"
#include "shardkit/interp/ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::interp {
namespace {

using Arity = OpSignature::Arity;

absl::Status sameOperandTypes(Op op, const VerifyContext&) {
  if (op.numOperands() == 2 && !(op.operand(0).type() == op.operand(1).type()))
    return absl::InvalidArgumentError(toAbsl(strCat(
        "requires all operands to have the same type, got ",
        op.operand(0).type().str(), " and ", op.operand(1).type().str())));
  return absl::OkStatus();
}

// `value` holds an elements literal of the operand's type.
absl::Status operandMatchesValue(Op op, const VerifyContext&) {
  const ElementsValue* value = op.attr("value").asElements();
  if (value == nullptr) {
    return absl::InvalidArgumentError(
        "attribute 'value' must be a dense elements attribute");
  }
  if (op.numOperands() == 1 && !(op.operand(0).type() == value->type)) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("requires the operand and 'value' to have the same "
                      "type, got ",
                      op.operand(0).type().str(), " and ", value->type.str())));
  }
  return absl::OkStatus();
}

// The reference's RunParallelOp verifier: a non-empty grid of rows of equal
// length, of functions of the module, whose arguments and results add up
// to the op's operands and results.
absl::Status verifyRunParallel(Op op, const VerifyContext&) {
  const std::vector<Attribute>* rows = op.attr("programs").asArray();
  if (rows == nullptr || rows->empty() || (*rows)[0].asArray() == nullptr ||
      (*rows)[0].asArray()->empty()) {
    return absl::InvalidArgumentError("`programs` attribute cannot be empty");
  }
  size_t partitions = (*rows)[0].asArray()->size();
  size_t args = 0, results = 0;
  for (const Attribute& row : *rows) {
    const std::vector<Attribute>* programs = row.asArray();
    if (programs == nullptr || programs->size() != partitions) {
      return absl::InvalidArgumentError(toAbsl(
          strCat("Sizes of second dimension of `programs` should all match ",
                 partitions, " but got ", programs ? programs->size() : 0)));
    }
    for (const Attribute& program : *programs) {
      const std::string* name = program.asSymbolRef();
      if (name == nullptr) {
        return absl::InvalidArgumentError(
            "`programs` must hold arrays of symbol references");
      }
      Op func = op.module()->lookupSymbol(*name);
      if (!isa<FuncOp>(func)) {
        return absl::InvalidArgumentError(
            toAbsl(strCat("Function @", *name, " not found")));
      }
      args += FuncOp(func).numArguments();
      results += FuncOp(func).numResults();
    }
  }
  if (op.numOperands() != args) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("Number of inputs (", op.numOperands(),
                      ") should match the sum of the number of inputs of all "
                      "programs (",
                      args, ")")));
  }
  if (op.numResults() != results) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("Number of results (", op.numResults(),
                      ") should match the sum of the number of results of all "
                      "programs (",
                      results, ")")));
  }
  return absl::OkStatus();
}

void registerOp(std::string_view name,
                std::initializer_list<std::string_view> inherent,
                OpInfo::VerifyFn verify, Arity operands, Arity results) {
  registerOpInfo(name, OpInfo::of(inherent, {}, verify,
                                  OpSignature{operands, results,
                                              OpSignature::exactly(0)}));
}

// `keyword = value` into `state` (after the comma was read): the value a
// number whose type the op declares (a tolerance, an ULP count), spelled
// with or without it (`0.1`, `0.1 : f64`; a type other than the declared
// one is left for what follows, the op's own `: type`), or a string.
absl::Status parseKeywordAttr(OpReader& r, std::string_view keyword,
                              std::string_view name, OperationState& state,
                              std::string_view type = {}) {
  ParserBase& p = r.p();
  SK_RETURN_IF_ERROR(p.expectKeyword(keyword));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
  if (p.at(TokenKind::kString)) {
    SK_ASSIGN_OR_RETURN(std::string s, p.parseString());
    state.addAttr(name, Attribute::string(std::move(s)));
    return absl::OkStatus();
  }
  bool negative = p.consumeIf(TokenKind::kMinus);
  Token number = p.tok();
  if (!number.is(TokenKind::kFloat) && !number.is(TokenKind::kInteger)) {
    return p.errorExpected("a number");
  }
  p.advance();
  if (p.at(TokenKind::kColon) && p.lexer().peek().isKeyword(type)) {
    p.advance();
    p.advance();
  }
  std::string text = strCat(negative ? "-" : "", number.spelling);
  if (type == "f64") {
    state.addAttr(
        name, Attribute::floating(std::strtod(text.c_str(), nullptr), "f64"));
    return absl::OkStatus();
  }
  int64_t value = 0;
  if (number.is(TokenKind::kFloat) || !parseInt64(text, value)) {
    return p.errorAt(number.offset,
                     strCat("expected an integer for ", keyword));
  }
  state.addAttr(name, Attribute::integer(value, type));
  return absl::OkStatus();
}

// `%a, %b [, tolerance = T] attr-dict : type` (expect_eq without the
// tolerance, expect_almost_eq with it).
absl::StatusOr<Op> parseBinaryCheck(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  if (r.p().consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(
        parseKeywordAttr(r, "tolerance", "tolerance", state, "f64"));
  }
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  SK_ASSIGN_OR_RETURN(Type type, r.parseType());
  SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, {type, type}, offset));
  return r.createOp(state);
}

// `%a, dense<...> : type [, tolerance = T] attr-dict` (the constant
// checks): the operand has the value's type.
absl::StatusOr<Op> parseConstCheck(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  size_t offset = r.p().tok().offset;
  SK_ASSIGN_OR_RETURN(Attribute value, r.parseAttribute());
  const ElementsValue* elements = value.asElements();
  if (elements == nullptr) {
    return r.p().errorAt(offset, "expected an elements literal with its type");
  }
  SK_RETURN_IF_ERROR(
      r.checkOperandTypes(state.operands, {elements->type}, offset));
  state.addAttr("value", std::move(value));
  if (r.p().consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(
        parseKeywordAttr(r, "tolerance", "tolerance", state, "f64"));
  }
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  return r.createOp(state);
}

// `%a, %e, max_ulp_difference = N [, min_ulp_difference = M] : attr-dict
// t1, t2`.
absl::StatusOr<Op> parseExpectClose(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(
      parseKeywordAttr(r, "max_ulp_difference", "max_ulp_difference", state));
  if (r.p().consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(
        parseKeywordAttr(r, "min_ulp_difference", "min_ulp_difference", state));
  }
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  std::vector<Type> types;
  size_t offset = r.p().tok().offset;
  SK_RETURN_IF_ERROR(r.parseTypeList(types));
  SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, types, offset));
  return r.createOp(state);
}

// `%e, probe_id = "p" [, iter = N] attr-dict : type`, and the probe's
// `%x, probe_id = "p" attr-dict : type` (whose result has the type).
absl::StatusOr<Op> parseProbeLike(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(parseKeywordAttr(r, "probe_id", "probe_id", state));
  bool serialized = check::ExpectSerializedEqOp::classof(name);
  if (serialized && r.p().consumeIf(TokenKind::kComma)) {
    SK_RETURN_IF_ERROR(parseKeywordAttr(r, "iter", "iteration", state, "ui32"));
  }
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_ASSIGN_OR_RETURN(Type type, r.parseTrailingOperandType(state.operands));
  if (!serialized) state.result_types.push_back(type);
  return r.createOp(state);
}

// `%x attr-dict : type`.
absl::StatusOr<Op> parsePrint(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.parseTrailingOperandType(state.operands).status());
  return r.createOp(state);
}

// These ops are printed in the generic form, which reads back.
bool printGeneric(OpWriter&, Op) { return false; }

void registerAll() {
  constexpr Arity kOne = OpSignature::exactly(1),
                  kTwo = OpSignature::exactly(2);
  constexpr Arity kNone = OpSignature::exactly(0);
  registerOp(check::ExpectEqOp::kName, {}, sameOperandTypes, kTwo, kNone);
  registerOp(check::ExpectEqConstOp::kName, {"value"}, operandMatchesValue,
             kOne, kNone);
  registerOp(check::ExpectAlmostEqOp::kName, {"tolerance"}, sameOperandTypes,
             kTwo, kNone);
  registerOp(check::ExpectAlmostEqConstOp::kName, {"value", "tolerance"},
             operandMatchesValue, kOne, kNone);
  registerOp(check::ExpectCloseOp::kName,
             {"max_ulp_difference", "min_ulp_difference"}, sameOperandTypes,
             kTwo, kNone);
  registerOp(check::ExpectSerializedEqOp::kName, {"probe_id", "iteration"},
             nullptr, kOne, kNone);
  registerOp(interpreter::RunParallelOp::kName, {"programs", "infeed"},
             verifyRunParallel, OpSignature::any(), OpSignature::any());
  registerOp(interpreter::PrintOp::kName, {}, nullptr, kOne, kNone);
  registerOp(interpreter::ProbeOp::kName, {"probe_id"}, nullptr, kOne, kOne);

  registerOpSyntax(check::ExpectEqOp::kName, {parseBinaryCheck, printGeneric});
  registerOpSyntax(check::ExpectAlmostEqOp::kName,
                   {parseBinaryCheck, printGeneric});
  registerOpSyntax(check::ExpectEqConstOp::kName,
                   {parseConstCheck, printGeneric});
  registerOpSyntax(check::ExpectAlmostEqConstOp::kName,
                   {parseConstCheck, printGeneric});
  registerOpSyntax(check::ExpectCloseOp::kName,
                   {parseExpectClose, printGeneric});
  registerOpSyntax(check::ExpectSerializedEqOp::kName,
                   {parseProbeLike, printGeneric});
  registerOpSyntax(interpreter::ProbeOp::kName, {parseProbeLike, printGeneric});
  registerOpSyntax(interpreter::PrintOp::kName, {parsePrint, printGeneric});
}

}  // namespace

void registerInterpreterDialects() {
  static std::once_flag once;
  std::call_once(once, registerAll);
}

}  // namespace shardkit::interp
