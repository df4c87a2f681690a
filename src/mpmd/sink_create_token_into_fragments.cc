// -mpmd-sink-create-token-into-fragments: tokens cannot cross fragment
// boundaries yet, so every fragment makes its own. A token operand of a
// fragment is dropped and its block argument replaced by a
// `stablehlo.create_token` at the start of the body; a token result is
// dropped once nothing uses it (after the operands are gone). Ordering that
// the tokens expressed between fragments is given up. Top-level
// create_token ops left unused are erased.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/export_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

// Drops the token operands of `fragment`, creating tokens in its body.
Op sinkTokenOperands(Op fragment) {
  Block body = fragment.region(0).front();
  std::vector<bool> keep(fragment.numOperands(), true);
  bool any = false;
  Op last;  // the tokens are made in operand order
  for (unsigned a = 0; a < fragment.numOperands(); ++a) {
    if (!fragment.operand(a).type().isToken()) continue;
    OperationState state(stablehlo::CreateTokenOp::opName());
    state.result_types.push_back(body.argument(a).type());
    Op token = last ? mpmd_internal::createAfter(last, state)
                    : mpmd_internal::createAtStart(body, state);
    body.argument(a).replaceAllUsesWith(token.result(0));
    keep[a] = false;
    any = true;
    last = token;
  }
  if (!any) return fragment;
  std::vector<bool> keep_results(fragment.numResults(), true);
  return mpmd_internal::rebuildFragment(fragment, keep, keep_results);
}

void dropUnusedTokenResults(Op fragment) {
  std::vector<bool> keep(fragment.numResults(), true);
  bool any = false;
  for (unsigned r = 0; r < fragment.numResults(); ++r) {
    Value result = fragment.result(r);
    if (result.type().isToken() && result.useEmpty()) {
      keep[r] = false;
      any = true;
    }
  }
  if (!any) return;
  std::vector<bool> keep_operands(fragment.numOperands(), true);
  Op rebuilt = mpmd_internal::rebuildFragment(fragment, keep_operands, keep);
  mpmd_internal::eraseDeadOps(rebuilt.region(0).front());
}

}  // namespace

absl::Status sinkCreateTokenIntoFragments(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    Block block = func.body();
    for (Op op : block.ops()) {
      if (isa<FragmentOp>(op)) sinkTokenOperands(op);
    }
    for (Op op : block.ops()) {
      if (isa<FragmentOp>(op)) dropUnusedTokenResults(op);
    }
    for (Op op : block.ops()) {
      if (isa<stablehlo::CreateTokenOp>(op) && op.result(0).useEmpty()) {
        op.erase();
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
