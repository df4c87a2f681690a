#include "src/propagation/value_slots.h"

#include <string_view>
#include <utility>

#include "shardkit/ir/computations.h"
#include "shardkit/ir/data_flow.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"
#include "shardkit/ir/sharding_access.h"
#include "shardkit/ir/stablehlo_ops.h"

namespace shardkit {
namespace {

bool isComputation(Op op) {
  return isa<sdy::NamedComputationOp, sdy::ManualComputationOp>(op);
}

bool isEntryBlock(Block block) { return block.parentRegion().front() == block; }

const TensorSharding* listEntry(Op op, std::string_view attr, unsigned i) {
  const TensorShardingPerValue* list = op.attr(attr).asTensorShardingPerValue();
  if (!list || i >= list->shardings.size()) return nullptr;
  return &list->shardings[i];
}

// The manual computation, the owner's position and its manual axes, for an
// edge op whose owner belongs to a manual computation with manual axes.
struct ManualEdge {
  Op computation;
  bool on_argument = false;
  unsigned index = 0;
  ManualAxes manual;
};

std::optional<ManualEdge> manualEdgeOf(Op edge) {
  if (edge.numOperands() != 1) return std::nullopt;
  Value owner = edge.operand(0);
  ManualEdge info;
  info.on_argument = owner.isBlockArgument();
  info.computation =
      info.on_argument ? computationOfArgument(owner) : owner.definingOp();
  if (!isa<sdy::ManualComputationOp>(info.computation)) {
    return std::nullopt;
  }
  info.manual = manualAxesOf(info.computation);
  if (info.manual.names.empty()) return std::nullopt;
  info.index = owner.index();
  return info;
}

}  // namespace

Value shardingSlot(Value value) {
  if (!value) return Value();
  if (!value.isBlockArgument()) {
    if (isDataFlowOp(value.definingOp())) {
      if (Op edge = dataFlowEdgeOpOf(value)) return edge.result(0);
    }
    return value;
  }
  Block block = value.ownerBlock();
  Op parent = block.parentOp();
  if (!parent || !isEntryBlock(block)) return Value();
  if (isa<FuncOp>(parent)) return value;
  if (isComputation(parent)) {
    if (Op edge = dataFlowEdgeOpOf(value)) return edge.result(0);
    return value;
  }
  // A while's cond and body arguments are targets of the edges of its
  // results.
  if (isa<stablehlo::WhileOp>(parent) && value.index() < parent.numResults()) {
    if (Op edge = dataFlowEdgeOpOf(parent.result(value.index()))) {
      return edge.result(0);
    }
  }
  return Value();
}

std::optional<TensorSharding> loadSlotSharding(Value slot) {
  std::optional<TensorSharding> scratch;
  const TensorSharding* s = findSlotSharding(slot, scratch);
  if (!s) return std::nullopt;
  if (scratch) return scratch;
  return *s;
}

const TensorSharding* findSlotSharding(Value slot,
                                       std::optional<TensorSharding>& scratch) {
  if (Op computation = computationOfArgument(slot)) {
    const TensorSharding* entry =
        listEntry(computation, "in_shardings", slot.index());
    if (!entry) return nullptr;
    scratch = withoutManualAxes(*entry, manualAxesOf(computation));
    return &*scratch;
  }
  return findSharding(slot);
}

void storeSlotSharding(Value slot, const TensorSharding& sharding,
                       const ShardingAttrs& attrs) {
  Op computation = computationOfArgument(slot);
  if (!computation) {
    setSharding(slot, sharding, attrs);
    return;
  }
  Block body = slot.ownerBlock();
  TensorShardingPerValue list;
  if (const TensorShardingPerValue* existing =
          computation.attr("in_shardings").asTensorShardingPerValue()) {
    list = *existing;
  }
  if (list.shardings.size() != body.numArguments()) {
    list.shardings.clear();
    for (Value arg : body.arguments()) {
      list.shardings.push_back(
          TensorSharding::fullyOpen(sharding.mesh, arg.type().rank()));
    }
  }
  TensorSharding& entry = list.shardings[slot.index()];
  ManualAxes manual = manualAxesOf(computation);
  entry = manual.names.empty() ? sharding
                               : withManualAxesOf(entry, sharding, manual);
  computation.setAttr("in_shardings",
                      Attribute::tensorShardingPerValue(std::move(list)));
}

std::optional<TensorSharding> edgeShardingBeforePropagation(
    Op edge, const TensorSharding* stored) {
  std::optional<ManualEdge> info = manualEdgeOf(edge);
  if (!info) {
    if (stored) return *stored;
    return std::nullopt;
  }
  if (info->on_argument) {
    const TensorSharding* outer =
        listEntry(info->computation, "in_shardings", info->index);
    if (!outer)
      return stored ? std::optional<TensorSharding>(*stored) : std::nullopt;
    TensorSharding local = stored
                               ? *stored
                               : TensorSharding::fullyOpen(
                                     outer->mesh, edge.result(0).type().rank());
    return withManualAxesOf(*outer, local, info->manual);
  }
  if (!stored) return std::nullopt;
  return withoutManualAxes(*stored, info->manual);
}

TensorSharding edgeShardingAfterPropagation(Op edge,
                                            const TensorSharding& propagated) {
  std::optional<ManualEdge> info = manualEdgeOf(edge);
  if (!info) return propagated;
  if (info->on_argument) return withoutManualAxes(propagated, info->manual);
  const TensorSharding* outer =
      listEntry(info->computation, "out_shardings", info->index);
  if (!outer) return propagated;
  return withManualAxesOf(*outer, propagated, info->manual);
}

bool keepZeroSizedDims(TensorSharding& update, const TensorSharding* old,
                       Type type, const Mesh& mesh) {
  if (!type.isRankedTensor()) return false;
  bool changed = false;
  absl::Span<const int64_t> shape = type.shape();
  for (size_t d = 0; d < shape.size() && d < update.dim_shardings.size(); ++d) {
    DimensionSharding& dim = update.dim_shardings[d];
    if (shape[d] != 0 || dim.shardedSize(mesh) <= 1) continue;
    dim = old && d < old->dim_shardings.size()
              ? old->dim_shardings[d]
              : DimensionSharding({}, dim.is_closed);
    changed = true;
  }
  return changed;
}

}  // namespace shardkit
