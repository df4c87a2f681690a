// -mpmd-infer-mesh-populate-use-set: the use set of every meshless op (and
// of unassigns, broadcasts, reduces, function arguments and results, and
// loop arguments) is the union of the use sets of its users, starting from
// assigns, whose use set is their mesh. Ops are visited last to first (a
// post-order walk from the end), so users come before producers. A call is
// visited like the callee's body inlined at that point; calls chained into
// calls of the same callee repeat until their use sets settle.
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "src/mpmd/infer_mesh_util.h"

namespace shardkit::mpmd {
namespace {

using namespace mpmd_internal;  // NOLINT: the analysis helpers

// Bounds the repetitions for a call chain (a guard against non-termination).
constexpr int kMaxCallChainIterations = 10;

void populateUseSet(Op op);

// Visits the ops of `op` (and `op` itself last) from the end.
void walkFromEnd(Op op) {
  for (unsigned r = op.numRegions(); r-- > 0;) {
    Region region = op.region(r);
    for (unsigned b = region.numBlocks(); b-- > 0;) {
      std::vector<Op> ops = region.block(b).ops();
      for (auto it = ops.rbegin(); it != ops.rend(); ++it) walkFromEnd(*it);
    }
  }
  populateUseSet(op);
}

// The callee's results get the use sets of the call's results; its body is
// visited when they changed or it was never visited. True if visited.
bool populateCallee(Op call, FuncOp callee) {
  bool changed = false;
  for (unsigned i = 0; i < call.numResults(); ++i) {
    MeshSet set = useSetOf(callee.resultAttrList(), i);
    int before = set.size();
    updateTransitiveUses(call.result(i), set);
    if (set.size() != before) {
      changed = true;
      setUseSet(callee.resultAttrList(), i, set);
    }
  }
  if (!changed && calleeHasUseSet(call)) return false;
  walkFromEnd(callee);
  return true;
}

void populateCall(Op call) {
  FuncOp callee = calleeOf(call);
  if (!callee || !callee.body()) return;
  bool changed = populateCallee(call, callee);
  if (!isCallInCallChain(call)) return;
  for (int i = 0; i < kMaxCallChainIterations && changed; ++i)
    changed = populateCallee(call, callee);
}

// A loop's results are used where the values its body returns are: those
// values' producers (or, for a call, its callee's results) get the uses of
// the loop's results.
void populateLoopTerminator(Op ret) {
  auto for_op = dynCast<ForOp>(ret.parentOp());
  if (!for_op) return;
  for (unsigned i = 0; i < ret.numOperands() && i < for_op->numResults(); ++i) {
    Op producer = ret.operand(i).definingOp();
    if (!producer) continue;
    Value result = for_op->result(i);
    if (isa<CallOp>(producer)) {
      FuncOp callee = calleeOf(producer);
      if (!callee) continue;
      unsigned index = ret.operand(i).index();
      MeshSet set = useSetOf(callee.resultAttrList(), index);
      updateTransitiveUses(result, set);
      setUseSet(callee.resultAttrList(), index, set);
    } else {
      MeshSet set = useSetOf(producer);
      updateTransitiveUses(result, set);
      setUseSet(producer, set);
    }
  }
}

// Adds to the use set of each argument of `body` (kept in `list`) the use
// sets of its uses.
void updateArgumentUseSets(Block body, const DictListAttr& list) {
  for (unsigned i = 0; body && i < body.numArguments(); ++i) {
    MeshSet set = useSetOf(list, i);
    updateTransitiveUses(body.argument(i), set);
    setUseSet(list, i, set);
  }
}

void populateUseSet(Op op) {
  if (auto assign = dynCast<AssignOp>(op)) {
    setUseSet(op, MeshSet(assign.meshWithOrigin()));
  } else if (auto func = dynCast<FuncOp>(op)) {
    updateArgumentUseSets(func.body(), func.argAttrList());
  } else if (isa<CallOp>(op)) {
    populateCall(op);
  } else if (auto for_op = dynCast<ForOp>(op)) {
    updateArgumentUseSets(for_op.body(), forArgAttrs(for_op));
  } else if (isa<ReturnOp>(op)) {
    populateLoopTerminator(op);
  } else if (isMeshlessOp(op) || isTerminalNodeInAnalysis(op) ||
             isa<UnassignOp>(op)) {
    MeshSet set = useSetOf(op);
    updateTransitiveUses(op, set);
    setUseSet(op, set);
  }
}

}  // namespace

absl::Status inferMeshPopulateUseSet(Module& module) {
  for (FuncOp func : entryPointFunctions(module)) walkFromEnd(func);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
