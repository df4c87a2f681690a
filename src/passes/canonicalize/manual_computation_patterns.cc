// Canonicalization patterns of sdy.manual_computation: unused body arguments
// go, and a computation whose manual axes have total size 1 (or that does
// nothing) is inlined (or erased).
#include <utility>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/module.h"
#include "src/passes/canonicalize/patterns.h"

namespace shardkit::canonicalize_internal {
namespace {

using sdy::ManualComputationOp;

bool unusedInputs(Op op, PatternRewriter& rewriter) {
  ManualComputationOp mc(op);
  Block body = mc.body();
  if (!body) return false;
  const std::vector<TensorSharding>& in = mc.inShardings().items;
  std::vector<TensorSharding> kept;
  std::vector<unsigned> unused;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    if (body.argument(i).useEmpty()) {
      unused.push_back(i);
    } else if (i < in.size()) {
      kept.push_back(in[i]);
    }
  }
  if (unused.empty()) return false;
  for (auto i = unused.rbegin(); i != unused.rend(); ++i) {
    rewriter.notifyChanged(op.operand(*i).definingOp());
    body.eraseArgument(*i);
    op.eraseOperand(*i);
  }
  mc.setInShardings(TensorShardingPerValue(std::move(kept)));
  rewriter.notifyChanged(op);
  return true;
}

// The product of the sizes of `mc`'s manual axes in the mesh of its
// shardings (1 when it has none).
int64_t manualAxesProduct(ManualComputationOp mc, const MeshTable& meshes) {
  const TensorSharding* any = nullptr;
  if (!mc.inShardings().empty()) {
    any = &mc.inShardings().items.front();
  } else if (!mc.outShardings().empty()) {
    any = &mc.outShardings().items.front();
  }
  if (!any) return 1;
  const Mesh* mesh = meshes.resolve(*any);
  if (!mesh) return 0;
  int64_t product = 1;
  for (const std::string& axis : mc.manualAxes()) {
    product *= mesh->axisSize(axis);
  }
  return product;
}

bool redundantManualComputation(Op op, PatternRewriter& rewriter) {
  ManualComputationOp mc(op);
  Block body = mc.body();
  if (!body || body.empty()) return false;
  if (mc.inShardings().empty() && mc.outShardings().empty() &&
      op.numResults() == 0 && isa<sdy::ReturnOp>(body.front())) {
    rewriter.eraseOp(op);
    return true;
  }
  if (manualAxesProduct(mc, rewriter.module().meshTable()) != 1) return false;
  Op terminator = body.back();
  for (unsigned i = 0; i < body.numArguments() && i < op.numOperands(); ++i) {
    body.argument(i).replaceAllUsesWith(op.operand(i));
  }
  for (Op nested = body.front(); nested && nested != terminator;) {
    Op next = nested.nextInBlock();
    nested.moveBefore(op);
    rewriter.notifyChanged(nested);
    nested = next;
  }
  std::vector<Value> results = terminator.operands();
  rewriter.replaceOp(op, results);
  return true;
}

}  // namespace

void registerManualComputationPatterns() {
  registerCanonicalizationPattern(ManualComputationOp::opName(), unusedInputs);
  registerCanonicalizationPattern(ManualComputationOp::opName(),
                                  redundantManualComputation);
}

}  // namespace shardkit::canonicalize_internal
