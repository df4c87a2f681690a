// -mpmd-insert-nameless-clone-of-negligible-ops: a named computation that
// returns the result of a negligible op (one result, no operands: a
// constant, an iota) would tie every user of that result to the
// computation's mesh, so two users assigned to different meshes would
// conflict in mesh inference. A copy of the op is placed right after the
// computation and the result's users outside it (but the function's
// return) take the copy; mesh inference can then copy it per mesh. The
// named computation itself does not change.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/passes.h"

namespace shardkit::mpmd {
namespace {

bool isNegligible(Op op) {
  return op && op.numOperands() == 0 && op.numResults() == 1 &&
         op.numRegions() == 0 && !op.opName().hasTrait(OpTrait::kTerminator);
}

void cloneNegligibleResults(Op computation) {
  Op ret = NamedComputationOp(computation).returnOp();
  if (!ret) return;
  Op anchor = computation;
  for (unsigned r = 0; r < ret.numOperands() && r < computation.numResults();
       ++r) {
    Op producer = ret.operand(r).definingOp();
    if (!isNegligible(producer) || !(producer.parentOp() == computation)) {
      continue;
    }
    ValueMap map;
    Op copy = cloneOp(producer, map);
    computation.parentBlock().insertAfter(anchor, copy);
    anchor = copy;
    computation.result(r).replaceUsesWithIf(
        copy.result(0),
        [](const Value::Use& use) { return !isa<func::ReturnOp>(use.user()); });
  }
}

}  // namespace

absl::Status insertNamelessCloneOfNegligibleOps(Module& module) {
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (!func.body() || (!isMpmdFunction(func) && !isSpmdFunction(func))) {
      continue;
    }
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    for (Op nested : ops) {
      if (isa<NamedComputationOp>(nested)) cloneNegligibleResults(nested);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
