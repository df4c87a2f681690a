#include "src/propagation/value_slots.h"

#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/ir/data_flow.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sharding_access.h"

namespace shardkit {
namespace {

bool isComputation(Op op) {
  return op && (op.name() == "sdy.named_computation" ||
                op.name() == "sdy.manual_computation");
}

bool isEntryBlock(Block block) { return block.parentRegion().front() == block; }

// The computation whose body's entry block has `arg`, or null.
Op computationOf(Value arg) {
  if (!arg.isBlockArgument()) return Op();
  Block block = arg.ownerBlock();
  Op parent = block.parentOp();
  return isComputation(parent) && isEntryBlock(block) ? parent : Op();
}

ManualAxes manualAxesOf(Op op) {
  if (op && op.name() == "sdy.manual_computation") {
    if (const ManualAxes* axes = op.attr("manual_axes").asManualAxes()) {
      return *axes;
    }
  }
  return ManualAxes();
}

const TensorSharding* listEntry(Op op, std::string_view attr, unsigned i) {
  const TensorShardingPerValue* list = op.attr(attr).asTensorShardingPerValue();
  if (!list || i >= list->shardings.size()) return nullptr;
  return &list->shardings[i];
}

// How many leading axes of `dim` are manual.
size_t manualPrefix(const DimensionSharding& dim, const ManualAxes& manual) {
  size_t n = 0;
  while (n < dim.axes.size() && manual.contains(dim.axes[n].name)) ++n;
  return n;
}

std::vector<AxisRef> freeAxes(const std::vector<AxisRef>& axes,
                              const ManualAxes& manual) {
  std::vector<AxisRef> kept;
  for (const AxisRef& axis : axes) {
    if (!manual.contains(axis.name)) kept.push_back(axis);
  }
  return kept;
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
      info.on_argument ? computationOf(owner) : owner.definingOp();
  if (!info.computation ||
      info.computation.name() != "sdy.manual_computation") {
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
  if (FuncOp::isa(parent)) return value;
  if (isComputation(parent)) {
    if (Op edge = dataFlowEdgeOpOf(value)) return edge.result(0);
    return value;
  }
  // A while's cond and body arguments are targets of the edges of its
  // results.
  if (parent.name() == "stablehlo.while" &&
      value.index() < parent.numResults()) {
    if (Op edge = dataFlowEdgeOpOf(parent.result(value.index()))) {
      return edge.result(0);
    }
  }
  return Value();
}

std::optional<TensorSharding> loadSlotSharding(Value slot) {
  if (Op computation = computationOf(slot)) {
    const TensorSharding* entry =
        listEntry(computation, "in_shardings", slot.index());
    if (!entry) return std::nullopt;
    return withoutManualAxes(*entry, manualAxesOf(computation));
  }
  return getSharding(slot);
}

void storeSlotSharding(Value slot, TensorSharding sharding,
                       ShardingAttrCache* cache) {
  Op computation = computationOf(slot);
  if (!computation) {
    setSharding(slot, std::move(sharding), cache);
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

TensorSharding withoutManualAxes(const TensorSharding& sharding,
                                 const ManualAxes& manual) {
  if (manual.names.empty()) return sharding;
  TensorSharding local = sharding;
  for (DimensionSharding& dim : local.dim_shardings) {
    dim.axes.erase(dim.axes.begin(),
                   dim.axes.begin() + manualPrefix(dim, manual));
  }
  local.replicated_axes = freeAxes(sharding.replicated_axes, manual);
  local.unreduced_axes = freeAxes(sharding.unreduced_axes, manual);
  return local;
}

TensorSharding withManualAxesOf(const TensorSharding& outer,
                                const TensorSharding& local,
                                const ManualAxes& manual) {
  TensorSharding global = local;
  for (size_t d = 0;
       d < global.dim_shardings.size() && d < outer.dim_shardings.size(); ++d) {
    const DimensionSharding& outer_dim = outer.dim_shardings[d];
    std::vector<AxisRef>& axes = global.dim_shardings[d].axes;
    axes.insert(axes.begin(), outer_dim.axes.begin(),
                outer_dim.axes.begin() + manualPrefix(outer_dim, manual));
  }
  global.replicated_axes = outer.replicated_axes;
  global.unreduced_axes = outer.unreduced_axes;
  global.unreduced_kind = outer.unreduced_kind;
  return global;
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

}  // namespace shardkit
