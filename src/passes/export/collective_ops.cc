// sdy collective ops <-> Collective values (see the header).
#include "src/passes/export/collective_ops.h"

#include <string>
#include <string_view>

#include "shardkit/ir/sdy_ops.h"

namespace shardkit::passes_internal {
namespace {

// The op that implements a collective kind and the attribute holding its
// axes (empty for collective_permute).
struct OpKind {
  OpName name;
  std::string_view axes_attr;
};

OpKind opKind(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllGather:
      return {sdy::AllGatherOp::opName(), "gathering_axes"};
    case CollectiveKind::kAllSlice:
      return {sdy::AllSliceOp::opName(), "slicing_axes"};
    case CollectiveKind::kAllToAll:
      return {sdy::AllToAllOp::opName(), "params"};
    case CollectiveKind::kCollectivePermute:
      return {sdy::CollectivePermuteOp::opName(), ""};
    case CollectiveKind::kAllReduce:
      return {sdy::AllReduceOp::opName(), "reduction_axes"};
    case CollectiveKind::kReduceScatter:
      return {sdy::ReduceScatterOp::opName(), "reduce_scatter_axes"};
    case CollectiveKind::kShardedToUnreduced:
      return {sdy::ShardedToUnreducedOp::opName(), "axes"};
    case CollectiveKind::kReplicatedToUnreduced:
      return {sdy::ReplicatedToUnreducedOp::opName(), "axes"};
  }
  return {};
}

Attribute axesAttribute(const Collective& c) {
  switch (c.kind) {
    case CollectiveKind::kAllGather:
    case CollectiveKind::kAllSlice:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kShardedToUnreduced:
      return Attribute::of(c.axes_per_dim);
    case CollectiveKind::kAllReduce:
    case CollectiveKind::kReplicatedToUnreduced:
      return Attribute::of(c.axes);
    case CollectiveKind::kAllToAll:
      return Attribute::of(c.params);
    case CollectiveKind::kCollectivePermute:
      break;
  }
  return Attribute();
}

bool hasReduction(CollectiveKind kind) {
  return kind == CollectiveKind::kAllReduce ||
         kind == CollectiveKind::kReduceScatter;
}

}  // namespace

std::optional<Collective> collectiveOf(Op op) {
  if (!op || !op.hasTrait(OpTrait::kCollective)) return std::nullopt;
  Collective c;
  std::string_view reduction;
  if (auto gather = dynCast<sdy::AllGatherOp>(op)) {
    c.kind = CollectiveKind::kAllGather;
    c.axes_per_dim = gather.gatheringAxes();
  } else if (auto slice = dynCast<sdy::AllSliceOp>(op)) {
    c.kind = CollectiveKind::kAllSlice;
    c.axes_per_dim = slice.slicingAxes();
  } else if (auto to_all = dynCast<sdy::AllToAllOp>(op)) {
    c.kind = CollectiveKind::kAllToAll;
    c.params = to_all.params();
  } else if (isa<sdy::CollectivePermuteOp>(op)) {
    c.kind = CollectiveKind::kCollectivePermute;
  } else if (auto reduce = dynCast<sdy::AllReduceOp>(op)) {
    c.kind = CollectiveKind::kAllReduce;
    c.axes = reduce.reductionAxes();
    reduction = reduce.reduction();
  } else if (auto scatter = dynCast<sdy::ReduceScatterOp>(op)) {
    c.kind = CollectiveKind::kReduceScatter;
    c.axes_per_dim = scatter.reduceScatterAxes();
    reduction = scatter.reduction();
  } else if (auto s2u = dynCast<sdy::ShardedToUnreducedOp>(op)) {
    c.kind = CollectiveKind::kShardedToUnreduced;
    c.axes_per_dim = s2u.axes();
  } else if (auto r2u = dynCast<sdy::ReplicatedToUnreducedOp>(op)) {
    c.kind = CollectiveKind::kReplicatedToUnreduced;
    c.axes = r2u.axes();
  } else {
    return std::nullopt;
  }
  std::optional<ReductionKind> kind = parseReductionKind(reduction);
  if (!kind) return std::nullopt;
  c.reduction = *kind;
  c.out_sharding = sdy::collectiveOutSharding(op);
  return c;
}

Value buildCollective(Module& module, const Collective& c, Value input,
                      Type type, uint32_t loc, Op anchor) {
  OpKind kind = opKind(c.kind);
  OperationState state(kind.name);
  state.operands = {input};
  state.result_types = {type};
  if (!kind.axes_attr.empty()) state.addAttr(kind.axes_attr, axesAttribute(c));
  state.addAttr("out_sharding", Attribute::of(c.out_sharding));
  if (hasReduction(c.kind) && c.reduction != ReductionKind::kSum) {
    state.addAttr("reduction",
                  Attribute::string(std::string(toString(c.reduction))));
  }
  state.location = loc;
  Op op = module.createOp(state);
  anchor.parentBlock().insertBefore(anchor, op);
  return op.result(0);
}

}  // namespace shardkit::passes_internal
