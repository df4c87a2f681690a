// -mpmd-copy-constants: a fragment operand that is, possibly through
// transfers, a constant some fragment returns is recomputed in the consuming
// fragment: the constant is cloned at the start of its body and used instead
// of the block argument (the operand stays; fragment-dce drops it).
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/clone.h"
#include "src/mpmd/common_passes.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// The op inside a fragment that computes the mesh tensor `v`, looking through
// transfers; null when `v` is not a fragment result.
Op producerInFragment(Value v) {
  Op def = v.definingOp();
  while (def && isa<TransferOp>(def)) {
    v = def.operand(0);
    def = v.definingOp();
  }
  if (!def || !isa<FragmentOp>(def)) return Op();
  return def.region(0).front().back().operand(v.index()).definingOp();
}

bool isConstantLike(Op op) {
  return isa<stablehlo::ConstantOp, sdy::ConstantOp, arith::ConstantOp>(op);
}

}  // namespace

absl::Status copyConstants(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    std::vector<Op> ops = func.body().ops();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (!isa<FragmentOp>(*it)) continue;
      Block body = it->region(0).front();
      for (unsigned i = 0; i < it->numOperands(); ++i) {
        Op constant = producerInFragment(it->operand(i));
        if (!constant || !isConstantLike(constant)) continue;
        ValueMap map;
        Op copy = cloneOp(constant, map);
        body.pushFront(copy);
        body.argument(i).replaceAllUsesWith(copy.result(0));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
