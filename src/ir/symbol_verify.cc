// The module's symbol table, verified as MLIR verifies one: one definition
// per name, symbol ops (OpTrait::kSymbol: func.func, sdy.mesh, ...) only
// directly in the module, and every func.call naming a function whose
// signature its operands and results match.
#include <string>
#include <utility>
#include <vector>

#include "shardkit/core/strings.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"
#include "src/ir/verify_util.h"

namespace shardkit::ir_internal {
namespace {

Diagnostic errorAt(Op op, std::string_view message) {
  return diagnosticsOf(opError(op, message)).front();
}

std::string typeList(const std::vector<Type>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    strAppend(out, i ? ", " : "", "'", types[i].str(), "'");
  }
  return out;
}

// A symbol nested in another op: sdy.mesh names the one parent it allows,
// any other symbol needs a symbol table around it (only the module is one).
void checkNestedSymbol(Op op, std::vector<Diagnostic>& errors) {
  if (isa<sdy::MeshOp>(op)) {
    errors.push_back(errorAt(op, "expects parent op 'builtin.module'"));
  } else {
    errors.push_back(
        errorAt(op, "symbol's parent must have the SymbolTable trait"));
  }
}

// The checks of a func.call against the function it names.
void checkCall(Op call, Module& module, std::vector<Diagnostic>& errors) {
  const std::string* callee = call.attr("callee").asSymbolRef();
  if (!callee) {
    errors.push_back(
        errorAt(call, "requires a 'callee' symbol reference attribute"));
    return;
  }
  FuncOp func = dynCast<FuncOp>(module.lookupSymbol(*callee));
  if (!func) {
    errors.push_back(errorAt(
        call, strCat("'@", *callee, "' does not reference a valid function")));
    return;
  }
  std::vector<Type> inputs = func.argumentTypes();
  if (inputs.size() != call.numOperands()) {
    errors.push_back(errorAt(call, "incorrect number of operands for callee"));
    return;
  }
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (call.operand(i).type() != inputs[i]) {
      errors.push_back(errorAt(
          call,
          strCat("operand type mismatch: expected operand type '",
                 inputs[i].str(), "', but provided '",
                 call.operand(i).type().str(), "' for operand number ", i)));
      return;
    }
  }
  std::vector<Type> results = func.resultTypes();
  if (results.size() != call.numResults()) {
    errors.push_back(errorAt(call, "incorrect number of results for callee"));
    return;
  }
  for (unsigned i = 0; i < results.size(); ++i) {
    if (call.result(i).type() != results[i]) {
      Diagnostic d = errorAt(call, strCat("result type mismatch at index ", i));
      d.notes.push_back(
          {d.location,
           Severity::kNote,
           strCat("op result types: ", typeList(call.resultTypes())),
           {}});
      d.notes.push_back({d.location,
                         Severity::kNote,
                         strCat("function result types: ", typeList(results)),
                         {}});
      errors.push_back(std::move(d));
      return;
    }
  }
}

}  // namespace

void verifySymbols(Module& module, std::vector<Diagnostic>& errors) {
  // As in MLIR, any op with a string `sym_name` defines a symbol.
  for (Op op : module.body()) {
    const std::string* name = op.attr("sym_name").asString();
    if (!name) {
      if (op.hasTrait(OpTrait::kSymbol)) {
        errors.push_back(errorAt(op, "requires string attribute 'sym_name'"));
      }
      continue;
    }
    Op first = module.lookupSymbol(*name);
    if (first != op) {
      // Reported as MLIR's symbol table does: at the op, without its name.
      Diagnostic d{locationOf(op),
                   Severity::kError,
                   strCat("redefinition of symbol named '", *name, "'"),
                   {}};
      d.notes.push_back({locationOf(first),
                         Severity::kNote,
                         "see existing symbol definition here",
                         {}});
      errors.push_back(std::move(d));
    }
  }
  module.walk([&](Op op) {
    if (op.hasTrait(OpTrait::kSymbol) && op.parentOp()) {
      checkNestedSymbol(op, errors);
    } else if (isa<func::CallOp>(op)) {
      checkCall(op, module, errors);
    }
  });
}

}  // namespace shardkit::ir_internal
