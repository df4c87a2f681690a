// The verifier hooks of func.func (signature against the body, argument and
// result shardings) and func.return (against the enclosing function's
// results), and the check of a func.call against its callee.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/support/status_macros.h"
#include "src/dialect/verify_util.h"

namespace shardkit::ir_internal {
namespace {

// The `sdy.sharding` of each of `types` (arguments or results, per `kind`)
// read by `attr_of`.
template <typename AttrOf>
absl::Status verifySignatureShardings(const std::vector<Type>& types,
                                      std::string_view kind, AttrOf attr_of,
                                      const VerifyContext& context) {
  for (unsigned i = 0; i < types.size(); ++i) {
    Attribute a = attr_of(i);
    if (!a) continue;
    const TensorSharding* s = a.as<TensorSharding>();
    if (!s) {
      return verifyError(strCat(kind, " ", i,
                                " - should have a sharding attribute of type "
                                "TensorShardingAttr"));
    }
    absl::Status status = context.verifySharding(a, types[i]);
    // The prefix is built only for an error.
    if (!status.ok()) return withPrefix(strCat(kind, " ", i, " - "), status);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status verifyFuncOp(Op op, const VerifyContext& context) {
  FuncOp func(op);
  // MLIR's symbol rule: a function without a body is defined elsewhere, so
  // this module cannot export it.
  if (func.isDeclaration() && func.visibility() == "public") {
    return verifyError("symbol declaration cannot have public visibility");
  }
  std::vector<Type> inputs = func.argumentTypes();
  std::vector<Type> results = func.resultTypes();
  Block body = func.body();
  if (body && body.numArguments() != inputs.size()) {
    return verifyError("entry block arguments don't match the function type");
  }
  for (unsigned i = 0; body && i < inputs.size(); ++i) {
    if (!(body.argument(i).type() == inputs[i])) {
      return verifyError(strCat(
          "type of entry block argument #", i, "('",
          body.argument(i).type().str(),
          "') must match the type of the corresponding argument in function "
          "signature('",
          inputs[i].str(), "')"));
    }
  }
  SK_RETURN_IF_ERROR(verifySignatureShardings(
      inputs, "arg", [&](unsigned i) { return func.argAttr(i, kShardingAttr); },
      context));
  SK_RETURN_IF_ERROR(verifySignatureShardings(
      results, "result",
      [&](unsigned i) { return func.resultAttr(i, kShardingAttr); }, context));
  // Each dictionary's entries, read in place; the message's prefix is made
  // only for an error.
  auto verify_debug_attrs = [&](DictListAttr list, std::string_view what) {
    for (unsigned i = 0; i < list.size(); ++i) {
      for (const NamedAttribute& entry : list.entries(i)) {
        absl::Status status =
            verifyFuncDebugAttr(entry.name, entry.value, context);
        if (!status.ok()) {
          return withPrefix(strCat(what, " ", i, " - "), status);
        }
      }
    }
    return absl::OkStatus();
  };
  SK_RETURN_IF_ERROR(verify_debug_attrs(func.argAttrList(), "arg"));
  SK_RETURN_IF_ERROR(verify_debug_attrs(func.resultAttrList(), "result"));
  // The return's operands are checked at the return (verifyFuncReturnOp).
  // An unknown op may be a terminator (as MLIR assumes with
  // -allow-unregistered-dialect).
  bool unknown_last =
      body && !body.empty() && !body.back().opName().isRegistered();
  if (!func.returnOp() && body && !unknown_last) {
    return verifyError(
        strCat("body must end with a '", func::ReturnOp::kName, "'"));
  }
  return absl::OkStatus();
}

// A func.return directly in a function returns its result types.
absl::Status verifyFuncReturnOp(Op ret, const VerifyContext&) {
  FuncOp func = dynCast<FuncOp>(ret.parentOp());
  if (!func) return absl::OkStatus();
  std::vector<Type> results = func.resultTypes();
  if (ret.numOperands() != results.size()) {
    return verifyError(strCat("has ", ret.numOperands(),
                              " operands, but enclosing function (@",
                              func.name(), ") returns ", results.size()));
  }
  for (unsigned i = 0; i < results.size(); ++i) {
    if (!(ret.operand(i).type() == results[i])) {
      return verifyError(strCat(
          "type of return operand ", i, " ('", ret.operand(i).type().str(),
          "') doesn't match function result type ('", results[i].str(),
          "') in function @", func.name()));
    }
  }
  return absl::OkStatus();
}

// A call's symbol use, as MLIR's CallOp::verifySymbolUses checks it: the
// callee is a function of the module whose signature the call matches.
absl::Status verifyFuncCallSymbol(Op call, Op callee) {
  func::CallOp c(call);
  if (c.callee().empty()) return verifyError("requires attribute 'callee'");
  FuncOp func = dynCast<FuncOp>(callee);
  if (!func) {
    return verifyError(
        strCat("'", c.callee(), "' does not reference a valid function"));
  }
  std::vector<Type> inputs = func.argumentTypes();
  if (call.numOperands() != inputs.size()) {
    return verifyError("incorrect number of operands for callee");
  }
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (!(call.operand(i).type() == inputs[i])) {
      return verifyError(
          strCat("operand type mismatch: expected operand type '",
                 inputs[i].str(), "', but provided '",
                 call.operand(i).type().str(), "' for operand number ", i));
    }
  }
  std::vector<Type> results = func.resultTypes();
  if (call.numResults() != results.size()) {
    return verifyError("incorrect number of results for callee");
  }
  for (unsigned i = 0; i < results.size(); ++i) {
    if (!(call.result(i).type() == results[i])) {
      return verifyError(strCat("result type mismatch at index ", i));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::ir_internal
