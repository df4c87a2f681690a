// Canonicalization patterns of the sdy collectives (the reference's
// collective patterns): collectives that move nothing, inverse pairs, fusions.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/ir/module.h"
#include "shardkit/sim/collectives.h"
#include "src/passes/canonicalize/patterns.h"

namespace shardkit::canonicalize_internal {
namespace {

using sdy::AllGatherOp;
using sdy::AllReduceOp;
using sdy::AllSliceOp;
using sdy::AllToAllOp;
using sdy::CollectivePermuteOp;
using sdy::ReduceScatterOp;
using sdy::ReplicatedToUnreducedOp;
using sdy::ShardedToUnreducedOp;

// True if `axes` name no axis.
bool noAxes(const AxisRefList& axes) { return axes.empty(); }
bool noAxes(const ListOfAxisRefLists& lists) {
  return std::all_of(lists.begin(), lists.end(),
                     [](const AxisRefList& l) { return l.empty(); });
}

// Replaces a collective over no axes by its operand.
template <typename CollectiveT>
bool noopCollective(Op op, PatternRewriter& rewriter) {
  CollectiveT c(op);
  if (!noAxes(c.axes())) return false;
  rewriter.replaceOp(op, c.tensor());
  return true;
}

bool collectivePermuteNoop(Op op, PatternRewriter& rewriter) {
  CollectivePermuteOp permute(op);
  std::optional<TensorSharding> in = shardingOf(permute.tensor());
  if (!in || !sameDistribution(*in, permute.outSharding())) return false;
  rewriter.replaceOp(op, permute.tensor());
  return true;
}

// An `Outer` of an `Inner` over the same axes is the inner op's operand:
// all_slice undoes all_gather, all_reduce undoes replicated_to_unreduced.
template <typename Outer, typename Inner>
bool undoesItsOperand(Op op, PatternRewriter& rewriter) {
  Outer outer(op);
  auto inner = dynCast<Inner>(outer.tensor().definingOp());
  if (!inner || inner.axes() != outer.axes()) return false;
  rewriter.replaceOp(op, inner.tensor());
  return true;
}

// all_reduce(sharded_to_unreduced(x, axes)) reducing exactly those axes is an
// all_gather of x along them.
bool allReduceOfShardedToUnreduced(Op op, PatternRewriter& rewriter) {
  AllReduceOp reduce(op);
  auto s2u = dynCast<ShardedToUnreducedOp>(reduce.tensor().definingOp());
  if (!s2u) return false;
  MeshTable meshes = rewriter.module().meshTable();
  const Mesh* mesh = meshes.resolve(s2u.outSharding());
  if (!mesh) return false;
  AxisRefVector axes;
  for (const AxisRefList& list : s2u.axes()) {
    axes.insert(axes.end(), list.begin(), list.end());
  }
  sortAndMergeAxes(axes, *mesh);
  if (axes != reduce.axes().items) return false;
  OperationState state(AllGatherOp::opName());
  state.operands = {s2u.tensor()};
  state.result_types = {op.result(0).type()};
  state.addAttr("gathering_axes", Attribute::of(s2u.axes()));
  state.addAttr("out_sharding", Attribute::of(reduce.outSharding()));
  Op gather = rewriter.createOpBefore(op, state);
  rewriter.replaceOp(op, gather.result(0));
  return true;
}

bool allToAllNoUse(Op op, PatternRewriter& rewriter) {
  if (!op.result(0).useEmpty()) return false;
  rewriter.eraseOp(op);
  return true;
}

// True if a dimension is the source or target of two params of `a` and `b`.
bool overlaps(const AllToAllParamList& a, const AllToAllParamList& b) {
  absl::flat_hash_set<int64_t> dims;
  for (const AllToAllParamList* list : {&a, &b}) {
    for (const AllToAllParam& p : list->items) {
      if (!dims.insert(p.src_dim).second || !dims.insert(p.tgt_dim).second) {
        return true;
      }
    }
  }
  return false;
}

bool allToAllFusion(Op op, PatternRewriter& rewriter) {
  AllToAllOp outer(op);
  auto inner = dynCast<AllToAllOp>(outer.tensor().definingOp());
  if (!inner || !inner.result().hasOneUse() ||
      overlaps(inner.params(), outer.params())) {
    return false;
  }
  std::vector<AllToAllParam> params = inner.params().items;
  params.insert(params.end(), outer.params().begin(), outer.params().end());
  std::stable_sort(params.begin(), params.end(),
                   [](const AllToAllParam& a, const AllToAllParam& b) {
                     return a.src_dim < b.src_dim;
                   });
  op.setOperand(0, inner.tensor());
  op.setAttr("params", Attribute::of(AllToAllParamList(std::move(params))));
  rewriter.notifyChanged(op);
  rewriter.notifyChanged(inner);
  return true;
}

}  // namespace

void registerCollectivePatterns() {
  // Patterns matching two ops come first, as MLIR orders them by benefit.
  auto add = [](OpName name, RewritePattern pattern) {
    registerCanonicalizationPattern(name, std::move(pattern), kCollectiveLabel);
  };
  add(AllGatherOp::opName(), noopCollective<AllGatherOp>);
  add(AllSliceOp::opName(), undoesItsOperand<AllSliceOp, AllGatherOp>);
  add(AllSliceOp::opName(), noopCollective<AllSliceOp>);
  add(AllReduceOp::opName(),
      undoesItsOperand<AllReduceOp, ReplicatedToUnreducedOp>);
  add(AllReduceOp::opName(), noopCollective<AllReduceOp>);
  add(AllReduceOp::opName(), allReduceOfShardedToUnreduced);
  add(AllToAllOp::opName(), allToAllFusion);
  add(AllToAllOp::opName(), allToAllNoUse);
  add(CollectivePermuteOp::opName(), collectivePermuteNoop);
  add(ReduceScatterOp::opName(), noopCollective<ReduceScatterOp>);
}

}  // namespace shardkit::canonicalize_internal
