// The sdy dialect's op table (inherent attributes, traits, verifier hook of
// each op) and the accessors of its typed handles.
#include "shardkit/dialect/sdy/sdy_ops.h"

#include <string>

#include "src/dialect/verify_util.h"
#include "src/ir/op_registration.h"

namespace shardkit {
namespace ir_internal {

void registerSdyOps() {
  using namespace sdy;  // NOLINT
  constexpr OpTrait kElementwise = OpTrait::kElementwise;
  constexpr OpTrait kCollective = OpTrait::kCollective;
  constexpr OpTraits kComputation =
      OpTrait::kIsolatedFromAbove | OpTrait::kDataFlowEdges;
  // The counts of the ops whose hooks do not check them.
  registerBuiltinOp(MeshOp::kName, {"sym_name", "mesh"}, OpTrait::kSymbol,
                    nullptr, {}, sig(kZero, kZero));
  registerBuiltinOp(ShardingConstraintOp::kName, {"sharding"},
                    kElementwise | OpTrait::kReshardLike, verifyReshardLikeOp,
                    "sharding");
  registerBuiltinOp(ReshardOp::kName, {"sharding"},
                    kElementwise | OpTrait::kReshardLike | OpTrait::kPure,
                    verifyReshardLikeOp, "sharding");
  registerBuiltinOp(ShardingGroupOp::kName, {"group_id"}, {}, nullptr, {},
                    sig(kOne, kZero));
  registerBuiltinOp(PropagationBarrierOp::kName, {"allowed_direction"},
                    kElementwise, verifyPropagationBarrierOp);
  registerBuiltinOp(ManualComputationOp::kName,
                    {"in_shardings", "out_shardings", "manual_axes"},
                    kComputation, verifyManualComputationOp, "out_shardings");
  registerBuiltinOp(NamedComputationOp::kName,
                    {"name", "in_shardings", "out_shardings"}, kComputation,
                    verifyNamedComputationOp, "out_shardings");
  registerBuiltinOp(DataFlowEdgeOp::kName, {"sharding"},
                    OpTrait::kPriorityPassThrough, verifyDataFlowEdgeOp,
                    "sharding");
  // Like data_flow_edge, not pure: its input may have no other use.
  registerBuiltinOp(FuncDataFlowEdgeOp::kName, {},
                    OpTrait::kPriorityPassThrough, verifyFuncDataFlowEdgeOp);
  registerBuiltinOp(ConstantOp::kName, {"value"}, OpTrait::kPure, nullptr, {},
                    sig(kZero, kOne));
  registerBuiltinOp(ReturnOp::kName, {}, OpTrait::kTerminator, nullptr, {},
                    sig(kAny, kZero));
  registerBuiltinOp(AllGatherOp::kName, {"gathering_axes", "out_sharding"},
                    kCollective, verifyAllGatherOp, "out_sharding");
  registerBuiltinOp(AllSliceOp::kName, {"slicing_axes", "out_sharding"},
                    kCollective, verifyAllSliceOp, "out_sharding");
  registerBuiltinOp(AllReduceOp::kName,
                    {"reduction_axes", "out_sharding", "reduction"},
                    kCollective, verifyAllReduceOp, "out_sharding");
  registerBuiltinOp(ReduceScatterOp::kName,
                    {"reduce_scatter_axes", "out_sharding", "reduction"},
                    kCollective, verifyReduceScatterOp, "out_sharding");
  registerBuiltinOp(AllToAllOp::kName, {"params", "out_sharding"}, kCollective,
                    verifyAllToAllOp, "out_sharding");
  registerBuiltinOp(CollectivePermuteOp::kName, {"out_sharding"}, kCollective,
                    verifyCollectivePermuteOp, "out_sharding");
  registerBuiltinOp(ShardedToUnreducedOp::kName, {"axes", "out_sharding"},
                    kCollective, verifyShardedToUnreducedOp, "out_sharding");
  registerBuiltinOp(ReplicatedToUnreducedOp::kName, {"axes", "out_sharding"},
                    kCollective, verifyReplicatedToUnreducedOp, "out_sharding");
}

}  // namespace ir_internal

namespace sdy {

std::string_view MeshOp::symName() const {
  return stringAttrOrEmpty(op_, "sym_name");
}
const Mesh& MeshOp::mesh() const { return attrOrEmpty<Mesh>(op_, "mesh"); }

const TensorSharding* DataFlowEdgeOp::sharding() const {
  return op_.attr("sharding").as<TensorSharding>();
}
void DataFlowEdgeOp::setSharding(TensorSharding sharding) const {
  op_.setAttr("sharding", Attribute::of(std::move(sharding)));
}

PropagationDirection PropagationBarrierOp::allowedDirection() const {
  const PropagationDirection* d =
      op_.attr("allowed_direction").as<PropagationDirection>();
  return d ? *d : PropagationDirection::kNone;
}

int64_t ShardingGroupOp::groupId() const {
  return op_.attr("group_id").intValue().value_or(0);
}

const Attribute& ConstantOp::value() const { return op_.attr("value"); }

bool ManualComputationOp::hasAttributesAndBody() const {
  return op_.attr("in_shardings").as<TensorShardingPerValue>() &&
         op_.attr("out_shardings").as<TensorShardingPerValue>() &&
         op_.attr("manual_axes").as<ManualAxes>() && op_.numRegions() == 1 &&
         op_.region(0).numBlocks() == 1;
}

const TensorShardingPerValue& ManualComputationOp::inShardings() const {
  return attrOrEmpty<TensorShardingPerValue>(op_, "in_shardings");
}
const TensorShardingPerValue& ManualComputationOp::outShardings() const {
  return attrOrEmpty<TensorShardingPerValue>(op_, "out_shardings");
}
void ManualComputationOp::setInShardings(
    TensorShardingPerValue shardings) const {
  op_.setAttr("in_shardings", Attribute::of(std::move(shardings)));
}
void ManualComputationOp::setOutShardings(
    TensorShardingPerValue shardings) const {
  op_.setAttr("out_shardings", Attribute::of(std::move(shardings)));
}
const ManualAxes& ManualComputationOp::manualAxes() const {
  return attrOrEmpty<ManualAxes>(op_, "manual_axes");
}

std::string_view NamedComputationOp::name() const {
  return stringAttrOrEmpty(op_, "name");
}
const TensorShardingPerValue* NamedComputationOp::inShardings() const {
  return op_.attr("in_shardings").as<TensorShardingPerValue>();
}
const TensorShardingPerValue* NamedComputationOp::outShardings() const {
  return op_.attr("out_shardings").as<TensorShardingPerValue>();
}

const TensorSharding& collectiveOutSharding(Op op) {
  return attrOrEmpty<TensorSharding>(op, "out_sharding");
}

std::string_view collectiveReduction(Op op) {
  return stringAttrOrEmpty(op, "reduction");
}

}  // namespace sdy
}  // namespace shardkit
