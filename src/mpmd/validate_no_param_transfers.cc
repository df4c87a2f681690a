// -mpmd-validate-no-param-transfers{fail-on-param-transfers param-pattern}:
// parameters should be placed on the mesh that uses them, not moved there at
// every step. A transfer between two meshes whose own name location, or that
// of the op producing its operand, contains the pattern (default
// `params['transformer`) is reported: a warning, or an error with the option.
// Locations of function arguments are not kept by the reader, so an argument
// is known by the transfer's location only.
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/location.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kDefaultPattern = "params['transformer";

// The name of a `loc("NAME")` (without a child location), or nullopt.
std::optional<std::string> nameOf(Op op) {
  const DebugLocation* loc = op ? op.debugLocation() : nullptr;
  if (loc == nullptr) return std::nullopt;
  const std::string& text = loc->text();
  if (text.size() < 2 || text.front() != '"') return std::nullopt;
  size_t close = text.find('"', 1);
  if (close == std::string::npos) return std::nullopt;
  return text.substr(1, close - 1);
}

void check(Op transfer, std::string_view pattern, bool fail,
           mpmd_internal::ErrorCollector& errors) {
  if (TransferOp(transfer).isIntraMesh()) return;
  Value operand = transfer.operand(0);
  std::string from = meshNameOf(operand.type());
  std::string to = meshNameOf(transfer.result(0).type());
  if (from == to) return;
  std::vector<std::string> names;
  for (Op op :
       {operand.isBlockArgument() ? Op() : operand.definingOp(), transfer}) {
    std::optional<std::string> name = nameOf(op);
    if (!name || name->find(pattern) == std::string::npos) continue;
    if (names.empty() || names.front() != *name) names.push_back(*name);
  }
  if (names.empty()) return;
  std::string message =
      "Detected cross-mesh transfer of a parameter matching \"" +
      std::string(pattern) + "\" from mesh \"" + from + "\" to \"" + to +
      "\". JAX locations: [";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) message += ", ";
    message += "\"" + names[i] + "\"";
  }
  mpmd_internal::reportAt(transfer, message + "]", fail, errors);
}

}  // namespace

absl::Status validateNoParamTransfers(Module& module,
                                      const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool fail,
                      options.getBool("fail-on-param-transfers", false));
  std::string pattern =
      options.get("param-pattern", std::string(kDefaultPattern));
  mpmd_internal::ErrorCollector errors;
  for (FuncOp func : mpmdFunctions(module)) {
    auto visit = [&](Op op) {
      if (isa<TransferOp>(op)) check(op, pattern, fail, errors);
    };
    Module::walkBlock(func.body(), visit);
  }
  return errors.status();
}

}  // namespace shardkit::mpmd
