// Building the ops -sdy-insert-explicit-reshards inserts, at the
// insertion points the reference uses, and the sharding comparisons it
// needs. Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_RESHARD_BUILDER_H_
#define SHARDKIT_SRC_PASSES_EXPORT_RESHARD_BUILDER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/graph.h"
#include "shardkit/ir/module.h"
#include "shardkit/sim/collectives.h"

namespace shardkit::passes_internal {

// True if no dimension of `sharding` (null = none) is sharded.
inline bool shardsNoDimension(const TensorSharding* sharding) {
  if (sharding == nullptr) return true;
  for (const DimensionSharding& dim : sharding->dim_shardings) {
    if (!dim.axes.empty()) return false;
  }
  return true;
}

// Whether two shardings (null = none) shard a tensor alike: neither shards a
// dimension (whatever their meshes; unreduced axes are reduced or added
// before this is asked), or same mesh, dimension and unreduced axes.
inline bool isEquivalent(const TensorSharding* a, const TensorSharding* b) {
  bool a_replicated = shardsNoDimension(a);
  bool b_replicated = shardsNoDimension(b);
  if (a_replicated && b_replicated) return true;
  if (a == nullptr || b == nullptr) return false;
  return sameDistribution(*a, *b);
}

inline TensorSharding fullyClosedLike(const TensorSharding& sharding) {
  return TensorSharding::fullyClosed(sharding.mesh, sharding.rank());
}

// Every use of `value` but those by `except` (the op just built on it) now
// uses `replacement`.
inline void replaceUsesExcept(Value value, Value replacement, Op except) {
  value.replaceUsesWithIf(replacement, [except](const Value::Use& use) {
    return !(use.user() == except);
  });
}

// Builds ops at the reference's insertion points.
class ReshardBuilder {
 public:
  explicit ReshardBuilder(Module& module) : module_(module) {}

  // An `sdy.reshard` of `input` to `sharding`, placed by `place`.
  template <typename Place>
  Value reshard(Value input, const TensorSharding& sharding, uint32_t loc,
                Place&& place) {
    OperationState state(sdy::ReshardOp::opName());
    state.addAttr("sharding", Attribute::of(sharding));
    return build(state, input, loc, place);
  }

  // An `sdy.replicated_to_unreduced` of `input` over `axes`.
  template <typename Place>
  Value replicatedToUnreduced(Value input, AxisRefVector axes,
                              const TensorSharding& out_sharding, uint32_t loc,
                              Place&& place) {
    OperationState state(sdy::ReplicatedToUnreducedOp::opName());
    state.addAttr("axes", Attribute::of(AxisRefList(std::move(axes))));
    return collective(state, input, out_sharding, loc, place);
  }

  // An `sdy.sharded_to_unreduced` of `input` over `axes_per_dim`.
  template <typename Place>
  Value shardedToUnreduced(Value input, ListOfAxisRefLists axes_per_dim,
                           const TensorSharding& out_sharding, uint32_t loc,
                           Place&& place) {
    OperationState state(sdy::ShardedToUnreducedOp::opName());
    state.addAttr("axes", Attribute::of(std::move(axes_per_dim)));
    return collective(state, input, out_sharding, loc, place);
  }

  // An `sdy.all_reduce` over `axes` of `input`, placed by `place`.
  template <typename Place>
  Value allReduce(Value input, AxisRefVector axes,
                  const TensorSharding& out_sharding, ReductionKind kind,
                  uint32_t loc, Place&& place) {
    OperationState state(sdy::AllReduceOp::opName());
    state.addAttr("reduction_axes",
                  Attribute::of(AxisRefList(std::move(axes))));
    if (kind != ReductionKind::kSum) {
      state.addAttr("reduction",
                    Attribute::string(std::string(toString(kind))));
    }
    return collective(state, input, out_sharding, loc, place);
  }

 private:
  template <typename Place>
  Value collective(OperationState& state, Value input,
                   const TensorSharding& out_sharding, uint32_t loc,
                   Place&& place) {
    state.addAttr("out_sharding", Attribute::of(out_sharding));
    return build(state, input, loc, place);
  }

  // The op of `state` on `input` (its result of the same type), placed by
  // `place`.
  template <typename Place>
  Value build(OperationState& state, Value input, uint32_t loc, Place&& place) {
    state.operands = {input};
    state.result_types = {input.type()};
    state.location = loc;
    Op op = module_.createOp(state);
    place(op);
    return op.result(0);
  }

  Module& module_;
};

// Places ops one after another, starting right after `anchor`.
struct After {
  Op anchor;
  void operator()(Op op) {
    anchor.parentBlock().insertAfter(anchor, op);
    anchor = op;
  }
};
// Places an op right before `anchor`.
struct Before {
  Op anchor;
  void operator()(Op op) const {
    anchor.parentBlock().insertBefore(anchor, op);
  }
};
// Places an op right after the definition of `value` (at the start of its
// block for a block argument).
struct AfterValue {
  Value value;
  void operator()(Op op) const {
    if (value.isBlockArgument()) {
      value.ownerBlock().pushFront(op);
    } else {
      Op def = value.definingOp();
      def.parentBlock().insertAfter(def, op);
    }
  }
};

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_RESHARD_BUILDER_H_
