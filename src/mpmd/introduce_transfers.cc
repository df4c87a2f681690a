// -mpmd-introduce-transfers: user assignments become transfers.
//
//   assign (unassign %v : M1) : M2    ~> %v (same type) or transfer %v : M1->M2
//   (an unassign assigned to several other meshes gets one chain of transfers
//   through the meshes in order, m1 -> m2 -> m3, which a runtime can group)
//   assign (add(unassign, add(...))) : M
//                                     ~> a fragment on M adding the operands
//   an mpmd.call whose every caller passes an unassign from one mesh has its
//   callee argument assigned to that mesh where the callee assigns it.
#include <algorithm>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/canonicalize.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/transfer_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::isBeforeInBlock;

bool assignOfUnassign(Op op, PatternRewriter& rewriter) {
  auto assign = AssignOp(op);
  auto unassign = dynCast<UnassignOp>(assign.tensor().definingOp());
  if (!unassign) return false;
  Value source = unassign.tensor();
  Type target = assign.result().type();
  if (source.type() == target) {
    rewriter.replaceOp(op, source);
    return true;
  }
  // At most one transfer of a value to a given mesh tensor type.
  for (const Value::Use& use : source.uses()) {
    auto transfer = dynCast<TransferOp>(use.user());
    if (!transfer || transfer.isIntraMesh() ||
        !(transfer.result().type() == target) ||
        !(transfer->parentBlock() == op.parentBlock())) {
      continue;
    }
    if (isBeforeInBlock(op, transfer)) {
      transfer->moveBefore(op);
      rewriter.notifyChanged(transfer);
    }
    rewriter.replaceOp(op, transfer.result());
    return true;
  }
  std::vector<AssignOp> assigns = mpmd_internal::crossMeshAssignUsers(unassign);
  if (assigns.size() < 2) assigns = {assign};
  mpmd_internal::replaceAssignsWithChainedTransfers(assigns, source, rewriter);
  return true;
}

// True if `add` has one use and adds unassigns or such adds.
bool isAddOfUnassigns(Op add) {
  if (!add.result(0).hasOneUse()) return false;
  for (Value operand : add.operands()) {
    Op producer = operand.definingOp();
    if (isa<UnassignOp>(producer)) continue;
    if (isa<stablehlo::AddOp>(producer) && isAddOfUnassigns(producer)) continue;
    return false;
  }
  return true;
}

// A meshless sum of values from other meshes is computed where it is used:
// its operands are transferred there (by assignOfUnassign on the assigns
// created for them).
bool pushAssignThroughAdd(Op op, PatternRewriter& rewriter) {
  auto assign = AssignOp(op);
  Op add = assign.tensor().definingOp();
  if (!isa<stablehlo::AddOp>(add) || !isAddOfUnassigns(add)) return false;
  mpmd_internal::wrapOpWithFragment(add, assign.meshName(), "", {}, &rewriter);
  return true;
}

// The unassign `value` comes from: directly, or through a call's callee.
UnassignOp findUnassign(Value value) {
  Op producer = value.definingOp();
  if (isa<CallOp>(producer)) {
    FuncOp callee = calleeOf(producer);
    Op ret = callee ? callee.returnOp() : Op();
    if (!ret || value.index() >= ret.numOperands()) return UnassignOp();
    return dynCast<UnassignOp>(ret.operand(value.index()).definingOp());
  }
  return dynCast<UnassignOp>(producer);
}

// In a callee whose every caller passes argument `i` unassigned from one
// mesh, the argument is assigned to that mesh (and unassigned) up front, so
// that its assigns become transfers.
void pushUnassignIntoCallee(FuncOp callee) {
  std::vector<Op> calls = callersOf(callee);
  Block body = callee.body();
  if (calls.empty() || !body) return;
  Op insert_after;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value arg = body.argument(i);
    UnassignOp first = findUnassign(calls.front().operand(i));
    if (!first) continue;
    bool same_mesh = true;
    for (Op call : calls) {
      UnassignOp source = findUnassign(call.operand(i));
      same_mesh = same_mesh && source && source.meshName() == first.meshName();
    }
    bool assigned = false;
    for (const Value::Use& use : arg.uses())
      assigned = assigned || isa<AssignOp>(use.user());
    if (!same_mesh || !assigned) continue;
    std::vector<Value::Use> uses = arg.uses();
    OperationState assign_state = AssignOp::build(arg, first.tensor().type());
    Op assign = insert_after
                    ? mpmd_internal::createAfter(insert_after, assign_state)
                    : mpmd_internal::createAtStart(body, assign_state);
    OperationState unassign_state = UnassignOp::build(assign.result(0));
    Op unassign = mpmd_internal::createAfter(assign, unassign_state);
    insert_after = unassign;
    for (const Value::Use& use : uses)
      use.user().setOperand(use.operandIndex(), unassign.result(0));
  }
}

}  // namespace

absl::Status introduceTransfers(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!isEntryPointFunction(func)) pushUnassignIntoCallee(func);
  }
  PatternSet patterns;
  patterns[std::string(AssignOp::kName)] = {assignOfUnassign,
                                            pushAssignThroughAdd};
  GreedyRewriteConfig config;
  config.top_down = false;
  config.mlir_worklist = true;
  applyPatternsGreedily(module, patterns, config);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
