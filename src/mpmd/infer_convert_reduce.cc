// -mpmd-infer-mesh-convert-reduce-ops{infer-cross-mesh-reductions}: meshless
// ops annotated as cross-mesh reductions (`mpmd.reduce`, see
// -mpmd-infer-mesh-populate-src-set) become mpmd.reduce ops, chains of one
// reduction kind flattened into one reduce:
//
//   x = add(w0, w1) {mpmd.reduce}; y = add(x, w2) {mpmd.reduce}
//     ~> y = mpmd.reduce<add> w0, w1, w2
//
// A concatenate along a size-1 dimension reduced over that dimension becomes
// a reduce of the reshaped pieces. Without infer-cross-mesh-reductions only
// the reductions a user marked (those feeding an mpmd.reduce<none>, through
// unary ops) are converted.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/reduction_utils.h"

namespace shardkit::mpmd {
namespace {

using namespace mpmd_internal;  // NOLINT: the analysis helpers

// Marks `op` and the reductions of the same kind feeding it.
void markConvertible(Op op, ReductionType type) {
  if (!op || reductionOpType(op) != type) return;
  op.setAttr(kCanConvertToReduceAttr, Attribute::unit());
  markConvertible(op.operand(0).definingOp(), type);
  markConvertible(op.operand(1).definingOp(), type);
}

// The reduction (through unary ops) feeding a none-reduce is convertible.
void markProducerOfNoneReduce(ReduceOp none_reduce) {
  if (none_reduce.reductionType() != ReductionType::kNone ||
      none_reduce->numOperands() == 0) {
    return;
  }
  Op op = none_reduce->operand(0).definingOp();
  while (op && op.numOperands() == 1 && op.numResults() == 1)
    op = op.operand(0).definingOp();
  if (!op) return;
  if (std::optional<ReductionType> type = reductionOpType(op)) {
    markConvertible(op, *type);
    return;
  }
  if (!isa<stablehlo::ReduceOp>(op)) return;
  Op reduce = matchConcatReduce(op.operand(0).definingOp());
  if (reduce && bodyReductionType(reduce.region(0).front()))
    op.setAttr(kCanConvertToReduceAttr, Attribute::unit());
}

Op createReduce(Op anchor, const std::vector<Value>& operands,
                const Attribute& reduction, Type result) {
  OperationState state(ReduceOp::opName());
  state.operands = operands;
  state.result_types = {result};
  state.addAttr("reduction", reduction);
  return createBefore(anchor, state);
}

// stablehlo.reduce(concatenate(xs)) ~> mpmd.reduce(reshape(x) for x in xs).
void convertConcatReduce(Op reduce) {
  Op concat = reduce.operand(0).definingOp();
  if (!isa<stablehlo::ConcatenateOp>(concat)) return;
  Type result = reduce.result(0).type();
  std::vector<Value> pieces;
  for (Value operand : concat.operands()) {
    OperationState state(stablehlo::ReshapeOp::opName());
    state.operands = {operand};
    state.result_types = {result};
    if (Op producer = operand.definingOp())
      state.discardable_attrs = producer.discardableAttrs();
    pieces.push_back(createBefore(reduce, state).result(0));
  }
  MeshSet src = srcSetOf(reduce);
  Op mpmd_reduce =
      createReduce(reduce, pieces, reduce.attr(kReduceAnnotationAttr), result);
  if (src.specified()) setSrcSet(mpmd_reduce, src);
  reduce.result(0).replaceAllUsesWith(mpmd_reduce.result(0));
  reduce.erase();
  concat.erase();
}

// An annotated binary reduction becomes an mpmd.reduce, absorbing the
// operands that are reduces of the same kind.
void convertAnnotated(Op op) {
  if (isa<stablehlo::ConcatenateOp>(op)) return;
  if (isa<stablehlo::ReduceOp>(op)) {
    convertConcatReduce(op);
    return;
  }
  // A copy: it is read while ops are created, and outlives `op`.
  Attribute reduction =  // NOLINT(performance-unnecessary-copy-initialization)
      op.attr(kReduceAnnotationAttr);
  std::vector<Value> operands;
  std::vector<Op> absorbed;
  for (Value operand : op.operands()) {
    auto inner = dynCast<ReduceOp>(operand.definingOp());
    if (inner && inner->attr("reduction") == reduction) {
      for (Value v : inner->operands()) operands.push_back(v);
      if (inner.op().result(0).hasOneUse()) absorbed.push_back(inner);
    } else {
      operands.push_back(operand);
    }
  }
  MeshSet src = srcSetOf(op);
  Op reduce = createReduce(op, operands, reduction, op.result(0).type());
  if (src.specified()) setSrcSet(reduce, src);
  op.result(0).replaceAllUsesWith(reduce.result(0));
  op.erase();
  for (Op inner : absorbed) inner.erase();
}

// The annotated meshless ops to convert, in program order (not looking
// inside fragments or inside the ops converted).
void collect(Block block, bool cross_mesh, std::vector<Op>& ops) {
  for (Op op : block) {
    if (isa<FragmentOp>(op)) continue;
    if (isMeshlessOp(op) && isReduceAnnotated(op) &&
        (cross_mesh || op.hasAttr(kCanConvertToReduceAttr))) {
      ops.push_back(op);
      continue;
    }
    forEachBlock(op, [&](Block nested) { collect(nested, cross_mesh, ops); });
  }
}

void convertFunction(FuncOp func, bool cross_mesh) {
  auto mark = [](Op op) {
    if (auto reduce = dynCast<ReduceOp>(op)) markProducerOfNoneReduce(reduce);
  };
  Module::walkBlock(func.body(), mark);
  std::vector<Op> ops;
  collect(func.body(), cross_mesh, ops);
  for (Op op : ops) {
    if (!op.isErased()) convertAnnotated(op);
  }
  auto unmark = [](Op op) { op.removeAttr(kCanConvertToReduceAttr); };
  Module::walkBlock(func.body(), unmark);
}

}  // namespace

absl::Status inferMeshConvertReduceOps(Module& module,
                                       const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool cross_mesh,
                      options.getBool("infer-cross-mesh-reductions", false));
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (func.body()) convertFunction(func, cross_mesh);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
