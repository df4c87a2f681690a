// -mpmd-absorb-inferred-fragments{absorb-on-entry-point-function}: root
// fragments (user fragments, and fragments not both fed by and feeding other
// fragments) absorb the inferred fragments next to them, so that a call body
// keeps the shape its user defined. A root R absorbs
//  - an inferred producer P whose closest consumer is R, after moving the
//    transfers of P's results right before their first users (out of the way);
//  - an inferred consumer C whose closest producer is R, after moving the
//    transfers feeding C right after what they transfer (out of the way).
// The merged fragment stays where R was and keeps R's origin, stage and
// discardable attributes (with the absorbed fragment's inferred_by when R is
// inferred). Patterns run greedily, last op first, as MLIR's driver does.
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

bool isInferredFragment(Op op) {
  return isa<FragmentOp>(op) && !FragmentOp(op).isUserFragment();
}

// The ops in `op`'s block that use its results (or contain a use), each once.
std::vector<Op> usersOf(Op op) {
  std::vector<Op> users;
  absl::flat_hash_set<Op> seen;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    for (const Value::Use& use : op.result(i).uses()) {
      Op user = ancestorInBlock(op.parentBlock(), use.user());
      if (user && seen.insert(user).second) users.push_back(user);
    }
  }
  return users;
}

// The ops defining `op`'s operands, each once, in operand order.
std::vector<Op> producersOf(Op op) {
  std::vector<Op> producers;
  absl::flat_hash_set<Op> seen;
  for (Value v : op.operands()) {
    Op def = v.definingOp();
    if (def && seen.insert(def).second) producers.push_back(def);
  }
  return producers;
}

bool isRoot(Op fragment) {
  if (FragmentOp(fragment).isUserFragment()) return true;
  bool feeds_fragment = false;
  for (Op user : usersOf(fragment))
    feeds_fragment = feeds_fragment || isa<FragmentOp>(user);
  bool fed_by_fragment = false;
  for (Op producer : producersOf(fragment))
    fed_by_fragment = fed_by_fragment || isa<FragmentOp>(producer);
  return !feeds_fragment || !fed_by_fragment;
}

Op closestConsumer(Op op) {
  Op closest;
  for (Op user : usersOf(op))
    if (!closest || isBeforeInBlock(user, closest)) closest = user;
  return closest;
}

Op closestProducer(Op op) {
  Op closest;
  for (Op producer : producersOf(op))
    if (!closest || isBeforeInBlock(closest, producer)) closest = producer;
  return closest;
}

// `root`'s discardable attributes, with `absorbed`'s inferred_by added when
// `root` is inferred.
AttrDict mergedDiscardableAttrs(Op root, Op absorbed) {
  AttrDict attrs = root.discardableAttrs();
  const std::vector<Attribute>* extra =
      absorbed.attr(kInferredByAttr).asArray();
  if (FragmentOp(root).isUserFragment() || !extra) return attrs;
  std::vector<Attribute> passes;
  if (const std::vector<Attribute>* own = root.attr(kInferredByAttr).asArray())
    passes = *own;
  for (const Attribute& pass : *extra)
    if (std::find(passes.begin(), passes.end(), pass) == passes.end())
      passes.push_back(pass);
  attrs.set(kInferredByAttr, Attribute::array(std::move(passes)));
  return attrs;
}

// Merges `producer` and `consumer`, one of which is `root`, into a fragment
// that is `root` in all but its body.
Op absorbInto(Op root, Op producer, Op consumer) {
  AttrDict discardable =
      mergedDiscardableAttrs(root, root == producer ? consumer : producer);
  // Copies, not references: the merge erases `root`.
  // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
  Attribute origin = root.attr(kOriginAttr);
  // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
  Attribute stage = root.attr("stage_id");
  Op merged = mergeFragmentOps(producer, consumer);
  merged.setAttr(kOriginAttr, origin);
  merged.removeAttr("stage_id");
  if (stage) merged.setAttr("stage_id", stage);
  merged.discardableAttrs() = discardable;
  return merged;
}

bool absorbClosestProducer(Op root, PatternRewriter& rewriter) {
  if (!isRoot(root)) return false;
  Op chosen;
  for (Op producer : producersOf(root)) {
    if (!isInferredFragment(producer)) continue;
    for (Op user : usersOf(producer)) {
      if (!isa<TransferOp>(user)) continue;
      if (Op first = closestConsumer(user)) {
        user.moveBefore(first);
      } else {
        rewriter.eraseOp(user);
      }
    }
    if (!chosen && closestConsumer(producer) == root) chosen = producer;
  }
  if (!chosen) return false;
  rewriter.notifyChanged(absorbInto(root, chosen, root));
  return true;
}

void moveTransferToProducer(Op transfer) {
  Value source = transfer.operand(0);
  if (Op def = source.definingOp()) {
    transfer.moveAfter(def);
  } else {
    Block block = source.ownerBlock();
    if (block.front() != transfer) transfer.moveBefore(block.front());
  }
}

bool absorbClosestConsumer(Op root, PatternRewriter& rewriter) {
  if (!isRoot(root)) return false;
  Op chosen;
  for (Op user : usersOf(root)) {
    if (!isInferredFragment(user)) continue;
    for (Op producer : producersOf(user))
      if (isa<TransferOp>(producer)) moveTransferToProducer(producer);
    if (!chosen && closestProducer(user) == root) chosen = user;
  }
  if (!chosen) return false;
  Op dest = root.nextInBlock();
  if (dest == chosen) dest = dest.nextInBlock();
  Op merged = absorbInto(root, root, chosen);
  if (dest) {
    merged.moveBefore(dest);
  } else {
    merged.parentBlock().pushBack(merged);
  }
  rewriter.notifyChanged(merged);
  return true;
}

bool isConstantLike(Op op) {
  return isa<stablehlo::ConstantOp, sdy::ConstantOp, arith::ConstantOp>(op);
}

// MLIR's greedy driver keeps the constants of an isolated region at the start
// of its entry block, one per value: so do the bodies here.
void hoistConstants(Block block) {
  std::vector<Op> constants;
  for (Op op : block) {
    if (!isConstantLike(op)) continue;
    Op same;
    for (Op kept : constants) {
      if (kept.opName() == op.opName() &&
          kept.result(0).type() == op.result(0).type() &&
          kept.attr("value") == op.attr("value"))
        same = kept;
    }
    if (same) {
      op.result(0).replaceAllUsesWith(same.result(0));
    } else {
      constants.push_back(op);
    }
  }
  for (Op op : block.ops())
    if (isConstantLike(op) && op.result(0).useEmpty() &&
        std::find(constants.begin(), constants.end(), op) == constants.end())
      op.erase();
  Op anchor = block.front();
  for (Op op : constants) {
    if (op == anchor) {
      anchor = anchor.nextInBlock();
    } else {
      op.moveBefore(anchor);
    }
  }
}

}  // namespace

absl::Status absorbInferredFragments(Module& module,
                                     const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool on_entry_point,
                      options.getBool("absorb-on-entry-point-function", false));
  PatternSet patterns;
  patterns[std::string(FragmentOp::kName)] = {absorbClosestProducer,
                                              absorbClosestConsumer};
  GreedyRewriteConfig config;
  config.top_down = false;
  config.mlir_worklist = true;
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    if (!on_entry_point && isEntryPointFunction(func)) continue;
    applyPatternsGreedily(func.op(), patterns, config);
    for (Op op : func.body())
      if (isa<FragmentOp>(op)) hoistConstants(op.region(0).front());
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
