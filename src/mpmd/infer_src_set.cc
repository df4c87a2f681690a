// -mpmd-infer-mesh-populate-src-set: the source set of every meshless op is
// the intersection of its operands' source sets (an op and its operands must
// share a mesh, and no transfer may be added between them), starting from
// unassigns (their mesh, and the meshes their value is already transferred
// to) and from entry-point arguments (the meshes they are used in, as
// `inferred_in`). Ops are visited first to last. A binary reduction (add,
// max, ...) whose operands have no mesh in common, or that reduces another
// such reduction, is annotated (`mpmd.reduce`) to become a cross-mesh reduce
// and gets the union of its operands' sets. Needs the use sets.
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/reduction_utils.h"

namespace shardkit::mpmd {
namespace {

using namespace mpmd_internal;  // NOLINT: the analysis helpers

void addUseSetToSrcSet(MeshSet& src, const MeshSet& use) {
  for (const std::string& mesh : use.meshNames())
    src.insert(MeshWithOrigins{mesh, {std::string(kInferredInputOrigin)}});
}

void initializeUnassign(UnassignOp unassign) {
  MeshSet src(unassign.meshWithOrigin());
  for (const Value::Use& use : unassign.tensor().uses()) {
    if (auto transfer = dynCast<TransferOp>(use.user())) {
      src.insert(MeshWithOrigins{meshNameOf(transfer.result().type()),
                                 {std::string(kTransferOrigin)}});
    }
  }
  // An entry-point argument may be transferred to the meshes it is used in.
  if (unassign.tensor().isBlockArgument() &&
      isEntryPointFunction(enclosingFunc(unassign))) {
    MeshSet use = MeshSet::none();
    updateTransitiveUses(unassign.result(), use);
    addUseSetToSrcSet(src, use);
  }
  setSrcSet(unassign, src);
}

void initializeArguments(FuncOp func) {
  for (unsigned i = 0; i < func.numArguments(); ++i) {
    MeshSet use = useSetOf(func.argAttrList(), i);
    if (use.empty()) continue;
    MeshSet src = MeshSet::none();
    addUseSetToSrcSet(src, use);
    setSrcSet(func.argAttrList(), i, src);
  }
}

// The reduction annotation: see the file comment.
void inferReduce(Op op) {
  Op concat_reduce = matchConcatReduce(op);
  std::optional<ReductionType> type =
      concat_reduce ? bodyReductionType(concat_reduce.region(0).front())
                    : reductionOpType(op);
  if (!type) return;
  Attribute annotation = reductionAttr(*type);
  MeshSet all;
  bool operand_is_reduce = false;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    MeshSet operand = srcSetOfOperand(op, i);
    if (operand.empty()) return;
    all.unite(operand);
    Op producer = op.operand(i).definingOp();
    if (producer && producer.attr(kReduceAnnotationAttr) == annotation)
      operand_is_reduce = true;
  }
  if (!srcSetOf(op).empty() && !operand_is_reduce) return;
  op.setAttr(kReduceAnnotationAttr, annotation);
  if (concat_reduce) concat_reduce.setAttr(kReduceAnnotationAttr, annotation);
  setSrcSet(op, all);
}

void propagate(Op op) {
  MeshSet src = srcSetOf(op);
  for (unsigned i = 0; i < op.numOperands(); ++i)
    src.intersect(srcSetOfOperand(op, i));
  if (!src.specified()) return;
  setSrcSet(op, src);
  inferReduce(op);
}

void populateSrcSet(Op op);

// Visits `op` then its regions, first to last (skipping the regions of
// fragments and meshless ops).
void walkFromStart(Op op) {
  populateSrcSet(op);
  if (isa<FragmentOp>(op) || isMeshlessOp(op) || isa<AssignOp>(op)) return;
  forEachBlock(op, [&](Block block) {
    for (Op nested : block.ops()) walkFromStart(nested);
  });
}

// A call is visited like its callee inlined: the callee's arguments get the
// source sets of the call's operands (intersected with what they had).
void populateCall(Op call) {
  FuncOp callee = calleeOf(call);
  if (!callee || !callee.body()) return;
  for (unsigned i = 0; i < call.numOperands(); ++i) {
    MeshSet src = srcSetOfOperand(call, i);
    src.intersect(srcSetOf(callee.argAttrList(), i));
    if (src.specified()) setSrcSet(callee.argAttrList(), i, src);
  }
  for (Op op : callee.body().ops()) walkFromStart(op);
}

void populateSrcSet(Op op) {
  if (auto unassign = dynCast<UnassignOp>(op)) {
    initializeUnassign(unassign);
  } else if (auto func = dynCast<FuncOp>(op)) {
    initializeArguments(func);
  } else if (isa<CallOp>(op)) {
    populateCall(op);
  } else if (auto for_op = dynCast<ForOp>(op)) {
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      MeshSet src = srcSetOfOperand(op, i);
      if (src.specified()) setSrcSet(forArgAttrs(for_op), i, src);
    }
  } else if (isMeshlessOp(op) || isa<AssignOp>(op)) {
    propagate(op);
  }
}

}  // namespace

absl::Status inferMeshPopulateSrcSet(Module& module) {
  for (FuncOp func : entryPointFunctions(module)) walkFromStart(func);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
