// The sdy dialect's op table (inherent attributes, traits, verifier hook of
// each op) and the accessors of its typed handles.
#include "shardkit/ir/sdy_ops.h"

#include <string>

#include "src/ir/op_registration.h"
#include "src/ir/verify_util.h"

namespace shardkit {
namespace ir_internal {

void registerSdyOps() {
  using namespace sdy;  // NOLINT
  constexpr OpTrait kElementwise = OpTrait::kElementwise;
  constexpr OpTrait kCollective = OpTrait::kCollective;
  constexpr OpTraits kComputation =
      OpTrait::kIsolatedFromAbove | OpTrait::kDataFlowEdges;
  registerBuiltinOp(MeshOp::kName, {"sym_name", "mesh"}, OpTrait::kSymbol);
  registerBuiltinOp(ShardingConstraintOp::kName, {"sharding"},
                    kElementwise | OpTrait::kReshardLike, verifyReshardLikeOp,
                    "sharding");
  registerBuiltinOp(ReshardOp::kName, {"sharding"},
                    kElementwise | OpTrait::kReshardLike | OpTrait::kPure,
                    verifyReshardLikeOp, "sharding");
  registerBuiltinOp(ShardingGroupOp::kName, {"group_id"});
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
  registerBuiltinOp(ConstantOp::kName, {"value"}, OpTrait::kPure);
  registerBuiltinOp(ReturnOp::kName, {}, OpTrait::kTerminator);
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
namespace {

// Attribute `name` of `op` as a `T`, or an empty `T` when the op does not
// have it (an op that failed verification).
template <SdyPayload T>
const T& attrOrEmpty(Op op, std::string_view name) {
  static const T* const kEmpty = new T();
  const T* value = op.attr(name).as<T>();
  return value ? *value : *kEmpty;
}

std::string_view stringAttr(Op op, std::string_view name) {
  const std::string* s = op.attr(name).asString();
  return s ? std::string_view(*s) : std::string_view();
}

const TensorSharding& shardingAttr(Op op, std::string_view name) {
  return attrOrEmpty<TensorSharding>(op, name);
}

}  // namespace

std::string_view MeshOp::symName() const { return stringAttr(op_, "sym_name"); }
const Mesh& MeshOp::mesh() const { return attrOrEmpty<Mesh>(op_, "mesh"); }

const TensorSharding& ShardingConstraintOp::sharding() const {
  return shardingAttr(op_, "sharding");
}
void ShardingConstraintOp::setSharding(TensorSharding sharding) const {
  op_.setAttr("sharding", Attribute::of(std::move(sharding)));
}

const TensorSharding& ReshardOp::sharding() const {
  return shardingAttr(op_, "sharding");
}
void ReshardOp::setSharding(TensorSharding sharding) const {
  op_.setAttr("sharding", Attribute::of(std::move(sharding)));
}

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
  return stringAttr(op_, "name");
}
const TensorShardingPerValue* NamedComputationOp::inShardings() const {
  return op_.attr("in_shardings").as<TensorShardingPerValue>();
}
const TensorShardingPerValue* NamedComputationOp::outShardings() const {
  return op_.attr("out_shardings").as<TensorShardingPerValue>();
}

const TensorSharding& collectiveOutSharding(Op op) {
  return shardingAttr(op, "out_sharding");
}

const ListOfAxisRefLists& AllGatherOp::gatheringAxes() const {
  return attrOrEmpty<ListOfAxisRefLists>(op_, "gathering_axes");
}
const ListOfAxisRefLists& AllSliceOp::slicingAxes() const {
  return attrOrEmpty<ListOfAxisRefLists>(op_, "slicing_axes");
}
const AxisRefList& AllReduceOp::reductionAxes() const {
  return attrOrEmpty<AxisRefList>(op_, "reduction_axes");
}
std::string_view AllReduceOp::reduction() const {
  return stringAttr(op_, "reduction");
}
const ListOfAxisRefLists& ReduceScatterOp::reduceScatterAxes() const {
  return attrOrEmpty<ListOfAxisRefLists>(op_, "reduce_scatter_axes");
}
std::string_view ReduceScatterOp::reduction() const {
  return stringAttr(op_, "reduction");
}
const AllToAllParamList& AllToAllOp::params() const {
  return attrOrEmpty<AllToAllParamList>(op_, "params");
}
const ListOfAxisRefLists& ShardedToUnreducedOp::axes() const {
  return attrOrEmpty<ListOfAxisRefLists>(op_, "axes");
}
const AxisRefList& ReplicatedToUnreducedOp::axes() const {
  return attrOrEmpty<AxisRefList>(op_, "axes");
}

}  // namespace sdy
}  // namespace shardkit
