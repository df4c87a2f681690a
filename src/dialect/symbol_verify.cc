// The module's symbol table, verified as MLIR verifies one: one definition
// per name and symbol ops (OpTrait::kSymbol: func.func, sdy.mesh, ...) only
// directly in the module. (A func.call's use of its symbol:
// verifyFuncCallSymbol, func_verify.cc.)
#include <string>
#include <utility>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"
#include "src/dialect/verify_util.h"

namespace shardkit::ir_internal {
namespace {

Diagnostic errorAt(Op op, std::string_view message) {
  return diagnosticsOf(opError(op, message)).front();
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

}  // namespace

void verifySymbols(Module& module, std::vector<Diagnostic>& errors) {
  // As in MLIR, any op with a string `sym_name` defines a symbol.
  size_t top_level_symbol_ops = 0;
  for (Op op : module.body()) {
    if (op.hasTrait(OpTrait::kSymbol)) ++top_level_symbol_ops;
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
  // The walk for nested symbol ops only when some op with the trait is not
  // at the top level (a large module's walk is a cache miss an op).
  if (module.numOpsWith(OpTrait::kSymbol) == top_level_symbol_ops) return;
  module.walk([&](Op op) {
    if (op.hasTrait(OpTrait::kSymbol) && op.parentOp()) {
      checkNestedSymbol(op, errors);
    }
  });
}

}  // namespace shardkit::ir_internal
