// The canonicalization patterns of the mpmd ops (docs/mpmd.md):
//
//   transfer %x : (T) -> T                        ~> %x
//   transfer (transfer %x : M<a> -> M<b>) -> M<c> ~> transfer %x : M<a> -> M<c>
//     (all on one mesh M; the inner transfer stays while it has other uses)
//   broadcast (broadcast %x)                      ~> broadcast %x
//   reduce<K> (reduce<K> %xs) or reduce<none> (reduce<K> %xs)
//                                                 ~> reduce<K> %xs
//   fragment returning an argument unchanged: its users use the operand
//     (same type outside) instead of the result.
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/passes/canonicalize.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Replaces `op` by a new `name` op of `operand`, with `op`'s result type.
bool replaceWithUnaryOp(Op op, PatternRewriter& rewriter, OpName name,
                        Value operand) {
  OperationState state(name);
  state.operands = {operand};
  state.result_types = {op.result(0).type()};
  Op replacement = rewriter.createOpBefore(op, state);
  rewriter.replaceOp(op, replacement.result(0));
  return true;
}

bool identityTransfer(Op op, PatternRewriter& rewriter) {
  if (!(op.operand(0).type() == op.result(0).type())) return false;
  rewriter.replaceOp(op, op.operand(0));
  return true;
}

bool intraMeshTransferOfTransfer(Op op, PatternRewriter& rewriter) {
  auto inner = dynCast<TransferOp>(op.operand(0).definingOp());
  if (!inner) return false;
  std::string mesh = meshNameOf(inner.tensor().type());
  if (mesh != meshNameOf(inner.result().type()) ||
      mesh != meshNameOf(op.result(0).type())) {
    return false;
  }
  return replaceWithUnaryOp(op, rewriter, TransferOp::opName(), inner.tensor());
}

bool broadcastOfBroadcast(Op op, PatternRewriter& rewriter) {
  auto inner = dynCast<BroadcastOp>(op.operand(0).definingOp());
  if (!inner) return false;
  return replaceWithUnaryOp(op, rewriter, BroadcastOp::opName(),
                            inner.tensor());
}

// A single-operand reduce of a reduce of the same kind, or a none-reduce of
// any reduce, is that reduce.
bool reduceOfReduce(Op op, PatternRewriter& rewriter) {
  if (op.numOperands() != 1) return false;
  auto inner = dynCast<ReduceOp>(op.operand(0).definingOp());
  if (!inner) return false;
  ReductionType outer = ReduceOp(op).reductionType();
  if (outer != ReductionType::kNone && outer != inner.reductionType()) {
    return false;
  }
  rewriter.replaceOp(op, inner->result(0));
  return true;
}

}  // namespace

bool eraseDeadFragment(Op op, PatternRewriter& rewriter) {
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (!op.result(i).useEmpty()) return false;
  }
  if (!isPure(op)) return false;
  rewriter.eraseOp(op);
  return true;
}

namespace {

// Values passed through a fragment unchanged are taken from before it.
bool fragmentPassThrough(Op op, PatternRewriter& rewriter) {
  auto fragment = FragmentOp(op);
  Op ret = fragment.returnOp();
  Block body = fragment.body();
  if (!ret || !body) return false;
  bool replaced = false;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value arg = body.argument(i);
    // The reference looks at the first of the argument's uses by the return.
    for (const Value::Use& use : arg.uses()) {
      if (!(use.user() == ret)) continue;
      Value result = op.result(use.operandIndex());
      Value operand = op.operand(i);
      if (!result.useEmpty() && operand.type() == result.type()) {
        for (const Value::Use& outside : result.uses()) {
          rewriter.notifyChanged(outside.user());
        }
        result.replaceAllUsesWith(operand);
        replaced = true;
      }
      break;
    }
  }
  if (replaced) rewriter.notifyChanged(op);
  return replaced;
}

}  // namespace

void registerCanonicalizationPatterns() {
  // Patterns that match two ops first (MLIR orders patterns by benefit, the
  // number of ops a declarative pattern matches).
  registerCanonicalizationPattern(TransferOp::opName(),
                                  intraMeshTransferOfTransfer);
  registerCanonicalizationPattern(TransferOp::opName(), identityTransfer);
  registerCanonicalizationPattern(BroadcastOp::opName(), broadcastOfBroadcast);
  registerCanonicalizationPattern(ReduceOp::opName(), reduceOfReduce);
  // Dead ops are erased before any pattern is tried (MLIR's canonicalizer
  // does so for an op whose nested ops have no side effects).
  registerCanonicalizationPattern(FragmentOp::opName(), eraseDeadFragment);
  registerCanonicalizationPattern(FragmentOp::opName(), fragmentPassThrough);
}

}  // namespace shardkit::mpmd::mpmd_internal
