// -mpmd-validate-no-reshards{fail-on-reshard-only-fragments}: a fragment call
// whose callee does nothing but return its arguments only moves data between
// shardings, which usually means an unintended reshard. Each is reported (a
// warning, or an error with the option) with the shardings and shapes of its
// operands and results and, for results the function returns, the
// `jax.result_info` of that function result.
#include <string>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

// The callee's body is one return of block arguments.
bool isReshardOnly(FuncOp callee) {
  Block body = callee.body();
  if (!body || body.numOps() != 1) return false;
  Op ret = body.front();
  if (!isa<func::ReturnOp>(ret)) return false;
  for (Value v : ret.operands()) {
    if (!v.isBlockArgument()) return false;
  }
  return true;
}

// `Replicated <4x8xf32>` or `#sdy.sharding<...> <4x8xf32>`.
std::string describeType(Type type) {
  std::optional<MeshTensorType> mesh_type = MeshTensorType::of(type);
  if (!mesh_type) return type.str();
  std::string out = mesh_type->sharding ? toAttrString(*mesh_type->sharding)
                                        : std::string("Replicated");
  out += " <";
  for (int64_t d : mesh_type->dims) out += std::to_string(d) + "x";
  out += mesh_type->element_type + ">";
  return out;
}

std::string locText(Op op) {
  const DebugLocation* loc = op ? op.debugLocation() : nullptr;
  return loc ? loc->toString() : "loc(unknown)";
}

std::string message(FuncOp func, Op call) {
  std::string out = "Detected reshard-only fragment '" +
                    std::string(FragmentCallOp(call).callee()) +
                    "'. This usually indicates an unexpected reshard. "
                    "Operands: ";
  for (unsigned i = 0; i < call.numOperands(); ++i) {
    Value operand = call.operand(i);
    if (i > 0) out += ", ";
    out += describeType(operand.type()) + " " +
           locText(operand.isBlockArgument() ? Op() : operand.definingOp());
  }
  out += ". Results: ";
  for (unsigned r = 0; r < call.numResults(); ++r) {
    if (r > 0) out += ", ";
    out += describeType(call.result(r).type());
    for (const Value::Use& use : call.result(r).uses()) {
      if (!isa<func::ReturnOp>(use.user())) continue;
      const std::string* info =
          func.resultAttr(use.operandIndex(), mpmd_internal::kResultInfoAttr)
              .asString();
      if (info) out += " loc(\"" + *info + "\")";
    }
  }
  return out;
}

}  // namespace

absl::Status validateNoReshards(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool fail,
                      options.getBool("fail-on-reshard-only-fragments", false));
  mpmd_internal::ErrorCollector errors;
  for (FuncOp func : functionDefinitions(module)) {
    auto visit = [&](Op op) {
      if (!isa<FragmentCallOp>(op)) return;
      FuncOp callee = calleeOf(op);
      if (!callee || !isReshardOnly(callee)) return;
      mpmd_internal::reportAt(op, message(func, op), fail, errors);
    };
    Module::walkBlock(func.body(), visit);
  }
  return errors.status();
}

}  // namespace shardkit::mpmd
