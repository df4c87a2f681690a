// The analysis of mesh inference: reading and writing use and source sets,
// and walking uses.
#include "src/mpmd/infer_mesh_util.h"

#include <algorithm>
#include <utility>

#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/dict_list_attr.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

constexpr std::string_view kArgAttrs = "arg_attrs";

void copyMeshesFromUse(Block source_block, const Value::Use& use,
                       MeshSet& set) {
  Op user = use.user();
  Value used = user.operand(use.operandIndex());
  if (isTerminalNodeInAnalysis(user) && !isa<BroadcastOp>(used.definingOp()))
    return;
  if (isa<UnassignOp>(user)) return;
  Op ancestor = ancestorInBlock(source_block, user);
  if (!(ancestor == user)) {
    set.unite(ancestor ? useSetOf(ancestor) : MeshSet::none());
    return;
  }
  if (isa<CallOp>(user)) {
    if (FuncOp callee = calleeOf(user))
      set.unite(useSetOf(callee.argAttrList(), use.operandIndex()));
    return;
  }
  if (isa<func::ReturnOp>(user)) {
    auto func = dynCast<FuncOp>(user.parentOp());
    if (func && !isEntryPointFunction(func)) {
      set.unite(useSetOf(func.resultAttrList(), use.operandIndex()));
      return;
    }
  }
  if (auto for_op = dynCast<ForOp>(user)) {
    set.unite(useSetOf(forArgAttrs(for_op), use.operandIndex()));
    return;
  }
  set.unite(useSetOf(user));
}

}  // namespace

DictListAttr forArgAttrs(ForOp op) {
  Block body = op.body();
  return DictListAttr(op, kArgAttrs, body ? body.numArguments() : 0);
}

bool isMeshlessOp(Op op) {
  if (!op || op.hasTrait(OpTrait::kTerminator) || isa<FuncOp>(op) ||
      op.dialect() == "mpmd") {
    return false;
  }
  for (Op parent = op.parentOp(); parent; parent = parent.parentOp()) {
    if (isa<FragmentOp>(parent)) return false;
  }
  return true;
}

bool isTerminalNodeInAnalysis(Op op) { return isa<BroadcastOp, ReduceOp>(op); }

std::string_view terminalNodeOrigin(Op op) {
  return isa<BroadcastOp>(op) ? kBroadcastOrigin : kReduceOrigin;
}

MeshSet useSetOf(Op op) {
  return op ? MeshSet::useSetFromAttr(op.attr(kUseSetAttr)) : MeshSet::none();
}
MeshSet useSetOf(const DictListAttr& list, unsigned i) {
  return MeshSet::useSetFromAttr(list.entry(i, kUseSetAttr));
}

void setUseSet(Op op, const MeshSet& set) {
  if (!set.empty()) op.setAttr(kUseSetAttr, set.toAttr());
}
void setUseSet(const DictListAttr& list, unsigned i, const MeshSet& set) {
  if (!set.empty()) list.setEntry(i, kUseSetAttr, set.toAttr());
}

std::vector<std::string> useMeshes(Op op) { return useSetOf(op).meshNames(); }

void updateTransitiveUses(Value value, MeshSet& set) {
  Block block = value.isBlockArgument() ? value.ownerBlock()
                                        : value.definingOp().parentBlock();
  for (const Value::Use& use : value.uses()) copyMeshesFromUse(block, use, set);
}

void updateTransitiveUses(Op op, MeshSet& set) {
  for (unsigned i = 0; i < op.numResults(); ++i)
    updateTransitiveUses(op.result(i), set);
}

MeshSet srcSetOf(Op op) {
  return op ? MeshSet::fromAttr(op.attr(kSrcSetAttr)) : MeshSet();
}
MeshSet srcSetOf(const DictListAttr& list, unsigned i) {
  return MeshSet::fromAttr(list.entry(i, kSrcSetAttr));
}

MeshSet srcSetOfOperand(Op user, unsigned operand) {
  Value value = user.operand(operand);
  // Through the data flow of calls and loops to what they return.
  while (Op producer = value.definingOp()) {
    Op ret;
    if (isa<CallOp>(producer)) {
      FuncOp callee = calleeOf(producer);
      ret = callee ? callee.returnOp() : Op();
    } else if (auto for_op = dynCast<ForOp>(producer)) {
      ret = for_op.returnOp();
    } else {
      break;
    }
    if (!ret || value.index() >= ret.numOperands()) return MeshSet();
    value = ret.operand(value.index());
  }
  if (Op producer = value.definingOp()) {
    return isa<AssignOp>(producer) ? MeshSet() : srcSetOf(producer);
  }
  Op owner = value.ownerBlock().parentOp();
  if (auto func = dynCast<FuncOp>(owner))
    return srcSetOf(func.argAttrList(), value.index());
  if (auto for_op = dynCast<ForOp>(owner))
    return srcSetOf(forArgAttrs(for_op), value.index());
  return MeshSet();
}

void setSrcSet(Op op, const MeshSet& set) {
  if (set.specified()) {
    op.setAttr(kSrcSetAttr, set.toAttr());
  } else {
    op.removeAttr(kSrcSetAttr);
  }
}
void setSrcSet(const DictListAttr& list, unsigned i, const MeshSet& set) {
  if (set.specified()) {
    list.setEntry(i, kSrcSetAttr, set.toAttr());
  } else {
    list.removeEntry(i, kSrcSetAttr);
  }
}

bool clearUseSet(Op op) { return op.removeAttr(kUseSetAttr); }

bool clearUseSetAndSrcSet(Op op) {
  bool removed = op.removeAttr(kUseSetAttr);
  return op.removeAttr(kSrcSetAttr) || removed;
}

void clearFuncUseSets(FuncOp func) {
  func.argAttrList().removeEntryEverywhere(kUseSetAttr);
  func.resultAttrList().removeEntryEverywhere(kUseSetAttr);
}

void clearFuncUseAndSrcSets(FuncOp func) {
  clearFuncUseSets(func);
  func.argAttrList().removeEntryEverywhere(kSrcSetAttr);
  func.resultAttrList().removeEntryEverywhere(kSrcSetAttr);
}

void clearForSets(ForOp op) {
  Block body = op.body();
  if (!body || !op->hasAttr(kArgAttrs)) return;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    forArgAttrs(op).removeEntry(i, kUseSetAttr);
    forArgAttrs(op).removeEntry(i, kSrcSetAttr);
  }
}

bool isCallInCallChain(Op call) {
  std::string_view callee = CallOp(call).callee();
  for (unsigned i = 0; i < call.numResults(); ++i) {
    for (const Value::Use& use : call.result(i).uses()) {
      auto user = dynCast<CallOp>(use.user());
      if (user && user.callee() == callee) return true;
    }
  }
  return false;
}

bool calleeHasUseSet(Op call) {
  FuncOp callee = calleeOf(call);
  if (!callee) return false;
  for (unsigned i = 0; i < callee.numArguments(); ++i) {
    if (callee.argAttr(i, kUseSetAttr)) return true;
  }
  return false;
}

bool isReduceAnnotated(Op op) {
  return op && op.hasAttr(kReduceAnnotationAttr);
}

}  // namespace shardkit::mpmd::mpmd_internal
