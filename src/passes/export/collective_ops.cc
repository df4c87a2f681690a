// sdy collective ops <-> Collective values (see the header).
#include "src/passes/export/collective_ops.h"

#include <string>
#include <string_view>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/support/enum_table.h"

namespace shardkit::passes_internal {
namespace {

// The op that implements a collective kind and the attribute holding its
// parameters (empty for collective_permute).
struct OpKind {
  OpName (*name)();
  std::string_view params_attr;
};

template <typename CollectiveOp>
constexpr OpKind axesOpKind() {
  return {&CollectiveOp::opName, CollectiveOp::kAxesAttr};
}

constexpr EnumTable<CollectiveKind, OpKind> kOpKinds = {{
    {CollectiveKind::kAllGather, axesOpKind<sdy::AllGatherOp>()},
    {CollectiveKind::kAllSlice, axesOpKind<sdy::AllSliceOp>()},
    {CollectiveKind::kAllToAll,
     {&sdy::AllToAllOp::opName, sdy::AllToAllOp::kParamsAttr}},
    {CollectiveKind::kCollectivePermute,
     {&sdy::CollectivePermuteOp::opName, ""}},
    {CollectiveKind::kAllReduce, axesOpKind<sdy::AllReduceOp>()},
    {CollectiveKind::kReduceScatter, axesOpKind<sdy::ReduceScatterOp>()},
    {CollectiveKind::kShardedToUnreduced,
     axesOpKind<sdy::ShardedToUnreducedOp>()},
    {CollectiveKind::kReplicatedToUnreduced,
     axesOpKind<sdy::ReplicatedToUnreducedOp>()},
}};

// The parameters of `c` as its op's attribute.
Attribute paramsAttribute(const Collective& c) {
  switch (paramsOf(c.kind)) {
    case CollectiveParams::kAxesPerDim:
      return Attribute::of(c.axes_per_dim);
    case CollectiveParams::kAxes:
      return Attribute::of(c.axes);
    case CollectiveParams::kAllToAll:
      return Attribute::of(c.params);
    case CollectiveParams::kNone:
      break;
  }
  return Attribute();
}

// Reads the parameters of `c` (of its kind) from `op`'s attribute `attr`
// (empty ones when it is missing).
void readParams(Op op, std::string_view attr, Collective& c) {
  switch (paramsOf(c.kind)) {
    case CollectiveParams::kAxesPerDim:
      c.axes_per_dim = attrOrEmpty<ListOfAxisRefLists>(op, attr);
      break;
    case CollectiveParams::kAxes:
      c.axes = attrOrEmpty<AxisRefList>(op, attr);
      break;
    case CollectiveParams::kAllToAll:
      c.params = attrOrEmpty<AllToAllParamList>(op, attr);
      break;
    case CollectiveParams::kNone:
      break;
  }
}

}  // namespace

std::optional<Collective> collectiveOf(Op op) {
  if (!op || !op.hasTrait(OpTrait::kCollective)) return std::nullopt;
  std::optional<CollectiveKind> kind = kOpKinds.findIf(
      [&](const OpKind& op_kind) { return op.is(op_kind.name()); });
  if (!kind) return std::nullopt;
  Collective c;
  c.kind = *kind;
  readParams(op, kOpKinds[*kind].params_attr, c);
  std::optional<ReductionKind> reduction = parseReductionKind(
      reduces(c.kind) ? sdy::collectiveReduction(op) : std::string_view());
  if (!reduction) return std::nullopt;
  c.reduction = *reduction;
  c.out_sharding = sdy::collectiveOutSharding(op);
  return c;
}

Value buildCollective(Module& module, const Collective& c, Value input,
                      Type type, uint32_t loc, Op anchor) {
  const OpKind& kind = kOpKinds[c.kind];
  OperationState state(kind.name());
  state.operands = {input};
  state.result_types = {type};
  if (!kind.params_attr.empty()) {
    state.addAttr(kind.params_attr, paramsAttribute(c));
  }
  state.addAttr("out_sharding", Attribute::of(c.out_sharding));
  if (reduces(c.kind) && c.reduction != ReductionKind::kSum) {
    state.addAttr("reduction",
                  Attribute::string(std::string(toString(c.reduction))));
  }
  state.location = loc;
  Op op = module.createOp(state);
  anchor.parentBlock().insertBefore(anchor, op);
  return op.result(0);
}

}  // namespace shardkit::passes_internal
