// -mpmd-convert-sdy-constants: the sdy import turns constants into
// `sdy.constant`s so that propagation shards each use alone; once the
// shardings are in the mesh tensor types nothing inside a fragment is
// sharded, and plain `stablehlo.constant`s may fold again.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {

absl::Status convertSdyConstants(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    for (Op op : ops) {
      auto constant = dynCast<sdy::ConstantOp>(op);
      if (!constant || op.numResults() != 1) continue;
      OperationState state(stablehlo::ConstantOp::opName());
      state.addAttr("value", constant.value());
      state.result_types = {op.result(0).type()};
      state.location = op.location();
      Op replacement = mpmd_internal::createBefore(op, state);
      op.result(0).replaceAllUsesWith(replacement.result(0));
      op.erase();
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
