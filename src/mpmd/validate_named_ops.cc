// -mpmd-validate-named-ops-in-mpmd-func: named computations and named tensors
// may only sit directly in an mpmd function (one with a topology) or in an
// mpmd op. Violations are reported without failing the pass, as the
// reference does.
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"

namespace shardkit::mpmd {
namespace {

bool isInMpmdFuncOrOp(Op op) {
  Op parent = op.parentOp();
  if (auto func = dynCast<FuncOp>(parent)) return isMpmdFunction(func);
  return parent && parent.dialect() == "mpmd";
}

}  // namespace

absl::Status validateNamedOpsInMpmdFunc(Module& module) {
  module.walk([](Op op) {
    if (isa<NamedComputationOp>(op) && !isInMpmdFuncOrOp(op)) {
      emitNonFatal(locatedError(op,
                                "Named computations can only be nested in "
                                "mpmd functions or mpmd ops."));
    }
    if (isa<NamedTensorOp>(op) && !isInMpmdFuncOrOp(op)) {
      emitNonFatal(locatedError(
          op,
          "Named tensors can only be nested in mpmd functions or mpmd ops."));
    }
  });
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
