// Typed handles of the sdy ops (the reference's docs/sdy_dialect.md). Accessors
// carry the reference's ODS names (`sharding()` is `getSharding()`). An
// accessor of a required attribute returns a reference: on an op that failed
// verification (the attribute is missing or of another kind) it returns an
// empty value. An optional attribute is returned as a pointer, null when
// absent.
#ifndef SHARDKIT_IR_SDY_OPS_H_
#define SHARDKIT_IR_SDY_OPS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "shardkit/core/collective_params.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::sdy {

// `sdy.mesh @name = <...>`: a named mesh, a symbol of the module.
class MeshOp : public OpBase<MeshOp> {
 public:
  static constexpr std::string_view kName = "sdy.mesh";
  using OpBase::OpBase;
  std::string_view symName() const;
  const Mesh& mesh() const;
};

// Shared by the ops that are an identity on one input and carry a sharding.
template <typename ConcreteOp>
class UnaryShardingOp : public OpBase<ConcreteOp> {
 public:
  using OpBase<ConcreteOp>::OpBase;
  Value input() const { return this->op_.operand(0); }
  Value result() const { return this->op_.result(0); }
};

// `sdy.sharding_constraint %x <@mesh, [...]>`: how `input` (or the uses of
// `result`) should be sharded.
class ShardingConstraintOp : public UnaryShardingOp<ShardingConstraintOp> {
 public:
  static constexpr std::string_view kName = "sdy.sharding_constraint";
  using UnaryShardingOp::UnaryShardingOp;
  const TensorSharding& sharding() const;
  void setSharding(TensorSharding sharding) const;
};

// `sdy.reshard %x <@mesh, [...]>`: `input` resharded to `sharding`.
class ReshardOp : public UnaryShardingOp<ReshardOp> {
 public:
  static constexpr std::string_view kName = "sdy.reshard";
  using UnaryShardingOp::UnaryShardingOp;
  const TensorSharding& sharding() const;
  void setSharding(TensorSharding sharding) const;
};

// `sdy.data_flow_edge %owner sharding=<...>`: the sharding of a data-flow
// edge whose owner (root target) is `input`.
class DataFlowEdgeOp : public UnaryShardingOp<DataFlowEdgeOp> {
 public:
  static constexpr std::string_view kName = "sdy.data_flow_edge";
  using UnaryShardingOp::UnaryShardingOp;
  // Null when the edge has no sharding yet.
  const TensorSharding* sharding() const;
  void setSharding(TensorSharding sharding) const;
};

// `sdy.func_data_flow_edge %x attr-dict : type`: the sharding of a function
// argument or a call result, which flows between the function and its calls
// (the argument's sources are the operands of every call; a call result's
// source is the callee's returned value). The sharding is the op's
// `sdy.sharding` (read it through sharding_site.h).
class FuncDataFlowEdgeOp : public UnaryShardingOp<FuncDataFlowEdgeOp> {
 public:
  static constexpr std::string_view kName = "sdy.func_data_flow_edge";
  using UnaryShardingOp::UnaryShardingOp;
};

// `sdy.propagation_barrier %x allowed_direction=...`.
class PropagationBarrierOp : public UnaryShardingOp<PropagationBarrierOp> {
 public:
  static constexpr std::string_view kName = "sdy.propagation_barrier";
  using UnaryShardingOp::UnaryShardingOp;
  // kNone when the attribute is missing.
  PropagationDirection allowedDirection() const;
};

// `sdy.sharding_group %x group_id=N`: `input` is sharded like the other
// members of group N. No results.
class ShardingGroupOp : public OpBase<ShardingGroupOp> {
 public:
  static constexpr std::string_view kName = "sdy.sharding_group";
  using OpBase::OpBase;
  Value input() const { return op_.operand(0); }
  // 0 when the attribute is missing.
  int64_t groupId() const;
};

// `sdy.constant dense<...>`: a constant that is never folded with another.
class ConstantOp : public OpBase<ConstantOp> {
 public:
  static constexpr std::string_view kName = "sdy.constant";
  using OpBase::OpBase;
  const Attribute& value() const;
  Value output() const { return op_.result(0); }
};

// `sdy.return`: the terminator of the sdy region ops.
class ReturnOp : public OpBase<ReturnOp> {
 public:
  static constexpr std::string_view kName = "sdy.return";
  using OpBase::OpBase;
};

// Shared by the two computation ops: one body block whose arguments mirror
// the operands and whose return mirrors the results.
template <typename ConcreteOp>
class ComputationOp : public OpBase<ConcreteOp> {
 public:
  using OpBase<ConcreteOp>::OpBase;
  // The entry block of the body (null if the body is empty).
  Block body() const {
    return this->op_.numRegions() ? this->op_.region(0).front() : Block();
  }
};

// `sdy.manual_computation(%x) in_shardings=[...] out_shardings=[...]
// manual_axes={...} (%local) { ... }`.
class ManualComputationOp : public ComputationOp<ManualComputationOp> {
 public:
  static constexpr std::string_view kName = "sdy.manual_computation";
  using ComputationOp::ComputationOp;
  const TensorShardingPerValue& inShardings() const;
  const TensorShardingPerValue& outShardings() const;
  void setInShardings(TensorShardingPerValue shardings) const;
  void setOutShardings(TensorShardingPerValue shardings) const;
  const ManualAxes& manualAxes() const;
};

// `sdy.named_computation<"name">(%x) (%arg) { ... }`.
class NamedComputationOp : public ComputationOp<NamedComputationOp> {
 public:
  static constexpr std::string_view kName = "sdy.named_computation";
  using ComputationOp::ComputationOp;
  // The computation's name (not the op's: that is `->name()`).
  std::string_view name() const;
  // Null when absent.
  const TensorShardingPerValue* inShardings() const;
  const TensorShardingPerValue* outShardings() const;
};

// The `out_sharding` of a collective (an empty sharding if it has none).
const TensorSharding& collectiveOutSharding(Op op);

// Shared by the collectives: one operand `tensor`, one result whose sharding
// is `out_sharding`.
template <typename ConcreteOp>
class CollectiveOp : public OpBase<ConcreteOp> {
 public:
  using OpBase<ConcreteOp>::OpBase;
  Value tensor() const { return this->op_.operand(0); }
  Value result() const { return this->op_.result(0); }
  const TensorSharding& outSharding() const {
    return collectiveOutSharding(this->op_);
  }
};

class AllGatherOp : public CollectiveOp<AllGatherOp> {
 public:
  static constexpr std::string_view kName = "sdy.all_gather";
  using CollectiveOp::CollectiveOp;
  const ListOfAxisRefLists& gatheringAxes() const;
};

class AllSliceOp : public CollectiveOp<AllSliceOp> {
 public:
  static constexpr std::string_view kName = "sdy.all_slice";
  using CollectiveOp::CollectiveOp;
  const ListOfAxisRefLists& slicingAxes() const;
};

class AllReduceOp : public CollectiveOp<AllReduceOp> {
 public:
  static constexpr std::string_view kName = "sdy.all_reduce";
  using CollectiveOp::CollectiveOp;
  const AxisRefList& reductionAxes() const;
  // "max" or "min"; empty for a sum (the default).
  std::string_view reduction() const;
};

class ReduceScatterOp : public CollectiveOp<ReduceScatterOp> {
 public:
  static constexpr std::string_view kName = "sdy.reduce_scatter";
  using CollectiveOp::CollectiveOp;
  const ListOfAxisRefLists& reduceScatterAxes() const;
  std::string_view reduction() const;
};

class AllToAllOp : public CollectiveOp<AllToAllOp> {
 public:
  static constexpr std::string_view kName = "sdy.all_to_all";
  using CollectiveOp::CollectiveOp;
  const AllToAllParamList& params() const;
};

class CollectivePermuteOp : public CollectiveOp<CollectivePermuteOp> {
 public:
  static constexpr std::string_view kName = "sdy.collective_permute";
  using CollectiveOp::CollectiveOp;
};

class ShardedToUnreducedOp : public CollectiveOp<ShardedToUnreducedOp> {
 public:
  static constexpr std::string_view kName = "sdy.sharded_to_unreduced";
  using CollectiveOp::CollectiveOp;
  const ListOfAxisRefLists& axes() const;
};

class ReplicatedToUnreducedOp : public CollectiveOp<ReplicatedToUnreducedOp> {
 public:
  static constexpr std::string_view kName = "sdy.replicated_to_unreduced";
  using CollectiveOp::CollectiveOp;
  const AxisRefList& axes() const;
};

}  // namespace shardkit::sdy

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_SDY_OPS_H_
