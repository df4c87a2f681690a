// Typed handles of the sdy ops (the reference's docs/sdy_dialect.md). Accessors
// carry the reference's ODS names (`sharding()` is `getSharding()`). An
// accessor of a required attribute returns a reference: on an op that failed
// verification (the attribute is missing or of another kind) it returns an
// empty value. An optional attribute is returned as a pointer, null when
// absent.
#ifndef SHARDKIT_DIALECT_SDY_SDY_OPS_H_
#define SHARDKIT_DIALECT_SDY_SDY_OPS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "shardkit/core/collective_params.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::sdy {

// `sdy.mesh @name = <...>`: a named mesh, a symbol of the module.
class MeshOp : public OpBase<"sdy.mesh"> {
 public:
  using OpBase::OpBase;
  std::string_view symName() const;
  const Mesh& mesh() const;
};

// Shared by the ops that are an identity on one input and carry a sharding
// (the input is also `tensor()`); `sdy.func_data_flow_edge %x attr-dict :
// type` is one with no more accessors: the sharding of a function argument
// or a call result, which flows between the function and its calls (the
// argument's sources are the operands of every call; a call result's source
// is the callee's returned value). Its sharding is the op's `sdy.sharding`
// (read it through sharding_site.h).
template <ir_internal::NameLiteral Name>
class UnaryShardingOp : public TensorOp<Name> {
 public:
  using TensorOp<Name>::TensorOp;
  Value input() const { return this->tensor(); }
};
using FuncDataFlowEdgeOp = UnaryShardingOp<"sdy.func_data_flow_edge">;

// `sdy.sharding_constraint %x <@mesh, [...]>` (how `input`, or the uses of
// `result`, should be sharded) and `sdy.reshard %x <@mesh, [...]>` (`input`
// resharded to `sharding`).
template <ir_internal::NameLiteral Name>
class ShardingOp : public UnaryShardingOp<Name> {
 public:
  using UnaryShardingOp<Name>::UnaryShardingOp;
  const TensorSharding& sharding() const {
    return attrOrEmpty<TensorSharding>(this->op_, "sharding");
  }
  void setSharding(TensorSharding sharding) const {
    this->op_.setAttr("sharding", Attribute::of(std::move(sharding)));
  }
};
using ShardingConstraintOp = ShardingOp<"sdy.sharding_constraint">;
using ReshardOp = ShardingOp<"sdy.reshard">;

// `sdy.data_flow_edge %owner sharding=<...>`: the sharding of a data-flow
// edge whose owner (root target) is `input`.
class DataFlowEdgeOp : public UnaryShardingOp<"sdy.data_flow_edge"> {
 public:
  using UnaryShardingOp::UnaryShardingOp;
  // Null when the edge has no sharding yet.
  const TensorSharding* sharding() const;
  void setSharding(TensorSharding sharding) const;
};

// `sdy.propagation_barrier %x allowed_direction=...`.
class PropagationBarrierOp : public UnaryShardingOp<"sdy.propagation_barrier"> {
 public:
  using UnaryShardingOp::UnaryShardingOp;
  // kNone when the attribute is missing.
  PropagationDirection allowedDirection() const;
};

// `sdy.sharding_group %x group_id=N`: `input` is sharded like the other
// members of group N. No results.
class ShardingGroupOp : public OpBase<"sdy.sharding_group"> {
 public:
  using OpBase::OpBase;
  Value input() const { return op_.operand(0); }
  // 0 when the attribute is missing.
  int64_t groupId() const;
};

// `sdy.constant dense<...>`: a constant that is never folded with another.
class ConstantOp : public OpBase<"sdy.constant"> {
 public:
  using OpBase::OpBase;
  const Attribute& value() const;
  Value output() const { return op_.result(0); }
};

// `sdy.return`: the terminator of the sdy region ops.
using ReturnOp = PlainOp<"sdy.return">;

// The two computation ops have one body block whose arguments mirror the
// operands and whose return mirrors the results.

// `sdy.manual_computation(%x) in_shardings=[...] out_shardings=[...]
// manual_axes={...} (%local) { ... }`.
class ManualComputationOp : public SingleBlockOp<"sdy.manual_computation"> {
 public:
  using SingleBlockOp::SingleBlockOp;
  // True if the op has its three attributes, of their kinds, and one body
  // block (what printing and verifying need before reading them).
  bool hasAttributesAndBody() const;
  const TensorShardingPerValue& inShardings() const;
  const TensorShardingPerValue& outShardings() const;
  void setInShardings(TensorShardingPerValue shardings) const;
  void setOutShardings(TensorShardingPerValue shardings) const;
  const ManualAxes& manualAxes() const;
};

// `sdy.named_computation<"name">(%x) (%arg) { ... }`.
class NamedComputationOp : public SingleBlockOp<"sdy.named_computation"> {
 public:
  using SingleBlockOp::SingleBlockOp;
  // The computation's name (not the op's: that is `->name()`).
  std::string_view name() const;
  // Null when absent.
  const TensorShardingPerValue* inShardings() const;
  const TensorShardingPerValue* outShardings() const;
};

// The `out_sharding` of a collective (an empty sharding if it has none).
const TensorSharding& collectiveOutSharding(Op op);

// Shared by the collectives: one operand `tensor`, one result whose sharding
// is `out_sharding`. `sdy.collective_permute` has nothing more.
template <ir_internal::NameLiteral Name>
class CollectiveOp : public TensorOp<Name> {
 public:
  using TensorOp<Name>::TensorOp;
  const TensorSharding& outSharding() const {
    return collectiveOutSharding(this->op_);
  }
};
using CollectivePermuteOp = CollectiveOp<"sdy.collective_permute">;

// A collective over the mesh axes its attribute `AxesAttr` lists: one list
// (`Axes` an AxisRefList) or one per dimension (a ListOfAxisRefLists).
template <ir_internal::NameLiteral Name, typename Axes,
          ir_internal::NameLiteral AxesAttr>
class AxesCollectiveOp : public CollectiveOp<Name> {
 public:
  static constexpr std::string_view kAxesAttr = AxesAttr.view();
  using CollectiveOp<Name>::CollectiveOp;
  const Axes& axes() const { return attrOrEmpty<Axes>(this->op_, kAxesAttr); }
};
using AllGatherOp =
    AxesCollectiveOp<"sdy.all_gather", ListOfAxisRefLists, "gathering_axes">;
using AllSliceOp =
    AxesCollectiveOp<"sdy.all_slice", ListOfAxisRefLists, "slicing_axes">;
using ShardedToUnreducedOp =
    AxesCollectiveOp<"sdy.sharded_to_unreduced", ListOfAxisRefLists, "axes">;
using ReplicatedToUnreducedOp =
    AxesCollectiveOp<"sdy.replicated_to_unreduced", AxisRefList, "axes">;

// The `reduction` of a collective that reduces: "max" or "min"; empty for a
// sum (the default).
std::string_view collectiveReduction(Op op);

// A collective that reduces over its axes.
template <ir_internal::NameLiteral Name, typename Axes,
          ir_internal::NameLiteral AxesAttr>
class ReducingCollectiveOp : public AxesCollectiveOp<Name, Axes, AxesAttr> {
 public:
  using AxesCollectiveOp<Name, Axes, AxesAttr>::AxesCollectiveOp;
  std::string_view reduction() const { return collectiveReduction(this->op_); }
};
using AllReduceOp =
    ReducingCollectiveOp<"sdy.all_reduce", AxisRefList, "reduction_axes">;
using ReduceScatterOp =
    ReducingCollectiveOp<"sdy.reduce_scatter", ListOfAxisRefLists,
                         "reduce_scatter_axes">;

class AllToAllOp : public CollectiveOp<"sdy.all_to_all"> {
 public:
  static constexpr std::string_view kParamsAttr = "params";
  using CollectiveOp::CollectiveOp;
  const AllToAllParamList& params() const {
    return attrOrEmpty<AllToAllParamList>(op_, kParamsAttr);
  }
};

}  // namespace shardkit::sdy

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_SDY_SDY_OPS_H_
