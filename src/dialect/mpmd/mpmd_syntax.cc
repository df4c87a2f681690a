// The pretty forms of the mpmd ops without regions (the assembly formats of
// the reference's mpmd dialect, openxla/shardy docs/mpmd_dialect.md), and the
// registration of the dialect's op, attribute and type syntaxes.
#include "shardkit/dialect/mpmd/mpmd_syntax.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/asm/op_syntax.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/op_name.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/mpmd/mpmd_syntax_internal.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::quotedString;

// `attr-dict %x : (t) -> t` (transfer, assign, unassign).
absl::StatusOr<Op> parseUnaryFunctional(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseAttrDictAndOperands(state, /*one_operand=*/true));
  SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  return r.createOp(state);
}

bool printUnaryFunctional(OpWriter& w, Op op) {
  if (op.numOperands() != 1 || op.numRegions() != 0) return false;
  w.printAttrDictAndOperands(op, op.name(), {});
  w.printFunctionalType(op);
  return true;
}

// `attr-dict %x : t` with the result of the operand's type (broadcast).
absl::StatusOr<Op> parseBroadcast(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseAttrDictAndOperands(state, /*one_operand=*/true));
  SK_ASSIGN_OR_RETURN(Type type, r.parseTrailingOperandType(state.operands));
  state.result_types.push_back(type);
  return r.createOp(state);
}

bool printBroadcast(OpWriter& w, Op op) {
  if (op.numOperands() != 1 || op.numResults() != 1 || op.numRegions() != 0 ||
      !(op.operand(0).type() == op.result(0).type())) {
    return false;
  }
  w.printAttrDictAndOperands(op, op.name(), {});
  w.printType(op.result(0).type());
  return true;
}

// `%x name="n" attr-dict : t` (named_tensor).
absl::StatusOr<Op> parseNamedTensor(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("name"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(std::string tensor_name,
                      r.p().parseString("tensor name"));
  state.addAttr("name", Attribute::string(std::move(tensor_name)));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_ASSIGN_OR_RETURN(Type type, r.parseTrailingOperandType(state.operands));
  state.result_types.push_back(type);
  return r.createOp(state);
}

bool printNamedTensor(OpWriter& w, Op op) {
  const std::string* tensor_name = op.attr("name").asString();
  if (!tensor_name || op.numOperands() != 1 || op.numResults() != 1 ||
      op.numRegions() != 0 || !(op.operand(0).type() == op.result(0).type())) {
    return false;
  }
  w.printUnaryForm(op, strCat(" name=", quotedString(*tensor_name)), {"name"},
                   op.result(0).type());
  return true;
}

// `<kind> attr-dict %a, ... : (ts) -> t` (reduce).
absl::StatusOr<Op> parseReduce(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  std::optional<ReductionType> kind;
  if (r.p().at(TokenKind::kBareIdent))
    kind = parseReductionType(r.p().tok().spelling);
  if (!kind) {
    return r.p().errorExpected(
        "reduction kind (none, add, max, min, mul, or, and)");
  }
  r.p().advance();
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kGreater, "'>'"));
  state.addAttr("reduction", reductionAttr(*kind));
  SK_RETURN_IF_ERROR(r.parseAttrDictAndOperands(state, /*one_operand=*/false));
  SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  return r.createOp(state);
}

bool printReduce(OpWriter& w, Op op) {
  std::optional<ReductionType> kind = reductionOf(op.attr("reduction"));
  if (!kind || op.numRegions() != 0) return false;
  w.printAttrDictAndOperands(op, strCat("mpmd.reduce<", toString(*kind), ">"),
                             {"reduction"});
  w.printFunctionalType(op);
  return true;
}

bool printCall(OpWriter& w, Op op) {
  return printCallLikeOp(w, op, "mpmd.call");
}

bool printReturn(OpWriter& w, Op op) {
  return printReturnLikeOp(w, op, "mpmd.return");
}

absl::StatusOr<Attribute> parseAttribute(ParserBase& p, std::string_view name) {
  SK_ASSIGN_OR_RETURN(std::string text, parseAttributeText(p, name));
  return Attribute::opaque(std::move(text));
}

void registerSyntaxes() {
  registerMpmdOps();
  registerDialectTextSyntax("mpmd", {parseAttribute, canonicalTypeText});
  registerOpSyntax(ReturnOp::kName, {parseReturnLikeOp, printReturn});
  for (std::string_view name :
       {TransferOp::kName, AssignOp::kName, UnassignOp::kName}) {
    registerOpSyntax(name, {parseUnaryFunctional, printUnaryFunctional});
  }
  registerOpSyntax(BroadcastOp::kName, {parseBroadcast, printBroadcast});
  registerOpSyntax(ReduceOp::kName, {parseReduce, printReduce});
  registerOpSyntax(CallOp::kName, {parseCallLikeOp, printCall});
  registerOpSyntax(NamedTensorOp::kName, {parseNamedTensor, printNamedTensor});
  mpmd_internal::registerRegionOpSyntaxes();
}

}  // namespace

std::string mpmd_internal::quotedString(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

}  // namespace shardkit::mpmd

namespace shardkit {

void registerMpmdSyntax() {
  static std::once_flag once;
  std::call_once(once, mpmd::registerSyntaxes);
}

}  // namespace shardkit
