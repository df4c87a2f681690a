#include "src/passes/import/value_sharding.h"

#include <string_view>
#include <utility>

#include "shardkit/ir/data_flow.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sharding_access.h"

namespace shardkit::import_internal {
namespace {

constexpr std::string_view kInShardings = "in_shardings";

// The computation (named or manual) whose body's entry block owns `arg`, or
// null.
Op computationOfArgument(Value arg) {
  if (!arg.isBlockArgument()) return Op();
  Block block = arg.ownerBlock();
  Op parent = block.parentOp();
  if (!parent || !(isManualComputation(parent) || isNamedComputation(parent))) {
    return Op();
  }
  if (parent.numRegions() != 1 || !(parent.region(0).front() == block)) {
    return Op();
  }
  return parent;
}

bool isFuncArgument(Value arg) {
  Block block = arg.ownerBlock();
  Op parent = block.parentOp();
  return FuncOp::isa(parent) && parent.region(0).front() == block;
}

std::vector<AxisRef> withoutManual(const std::vector<AxisRef>& axes,
                                   const ManualAxes& manual) {
  std::vector<AxisRef> kept;
  for (const AxisRef& axis : axes) {
    if (!manual.contains(axis.name)) kept.push_back(axis);
  }
  return kept;
}

// How many leading axes of `dim` are manual.
size_t manualPrefixLength(const DimensionSharding& dim,
                          const ManualAxes& manual) {
  size_t n = 0;
  while (n < dim.axes.size() && manual.contains(dim.axes[n].name)) ++n;
  return n;
}

}  // namespace

bool isManualComputation(Op op) {
  return op && op.name() == "sdy.manual_computation";
}

bool isNamedComputation(Op op) {
  return op && op.name() == "sdy.named_computation";
}

bool isStaticShapedTensor(Type type) {
  return type && type.isRankedTensor() && type.hasStaticShape();
}

ManualAxes manualAxesOf(Op manual_computation) {
  if (const ManualAxes* axes =
          manual_computation.attr("manual_axes").asManualAxes()) {
    return *axes;
  }
  return ManualAxes();
}

TensorSharding eraseManualAxes(const TensorSharding& sharding,
                               const ManualAxes& manual) {
  if (manual.names.empty()) return sharding;
  TensorSharding result = sharding;
  for (DimensionSharding& dim : result.dim_shardings) {
    size_t n = manualPrefixLength(dim, manual);
    dim.axes.erase(dim.axes.begin(), dim.axes.begin() + n);
  }
  result.replicated_axes = withoutManual(sharding.replicated_axes, manual);
  result.unreduced_axes = withoutManual(sharding.unreduced_axes, manual);
  return result;
}

TensorSharding addManualAxes(const TensorSharding& outer,
                             const TensorSharding& body,
                             const ManualAxes& manual) {
  TensorSharding result = body;
  for (size_t d = 0; d < result.dim_shardings.size(); ++d) {
    if (d >= outer.dim_shardings.size()) break;
    const DimensionSharding& outer_dim = outer.dim_shardings[d];
    size_t n = manualPrefixLength(outer_dim, manual);
    std::vector<AxisRef>& axes = result.dim_shardings[d].axes;
    axes.insert(axes.begin(), outer_dim.axes.begin(),
                outer_dim.axes.begin() + n);
  }
  result.replicated_axes = outer.replicated_axes;
  result.unreduced_axes = outer.unreduced_axes;
  result.unreduced_kind = outer.unreduced_kind;
  return result;
}

Value edgeOwnerOfTarget(Value target) {
  if (!target) return Value();
  if (!target.isBlockArgument()) {
    return isDataFlowOp(target.definingOp()) ? target : Value();
  }
  if (computationOfArgument(target)) return target;
  Op parent = target.ownerBlock().parentOp();
  if (parent && parent.name() == "stablehlo.while" &&
      target.index() < parent.numResults()) {
    return parent.result(target.index());
  }
  return Value();
}

Op dataFlowEdgeUser(Value owner) {
  if (!owner || !owner.hasOneUse()) return Op();
  Op user = owner.uses().front().user();
  return user.name() == "sdy.data_flow_edge" ? user : Op();
}

Op dataFlowEdgeOfTarget(Value target) {
  return dataFlowEdgeUser(edgeOwnerOfTarget(target));
}

std::optional<TensorSharding> ownerSharding(Value owner) {
  Op computation = computationOfArgument(owner);
  if (!computation) return getSharding(owner);
  const TensorShardingPerValue* list =
      computation.attr(kInShardings).asTensorShardingPerValue();
  if (!list || owner.index() >= list->shardings.size()) return std::nullopt;
  const TensorSharding& sharding = list->shardings[owner.index()];
  if (isManualComputation(computation)) {
    return eraseManualAxes(sharding, manualAxesOf(computation));
  }
  return sharding;
}

void setOwnerSharding(Value owner, const TensorSharding& sharding) {
  Op computation = computationOfArgument(owner);
  if (!computation) {
    setSharding(owner, sharding);
    return;
  }
  Block body = owner.ownerBlock();
  TensorShardingPerValue list;
  if (const TensorShardingPerValue* existing =
          computation.attr(kInShardings).asTensorShardingPerValue()) {
    list = *existing;
  }
  if (list.shardings.size() != body.numArguments()) {
    list.shardings.clear();
    for (Value arg : body.arguments()) {
      list.shardings.push_back(
          TensorSharding::fullyOpen(sharding.mesh, arg.type().rank()));
    }
  }
  TensorSharding& slot = list.shardings[owner.index()];
  slot = isManualComputation(computation)
             ? addManualAxes(slot, sharding, manualAxesOf(computation))
             : sharding;
  computation.setAttr(kInShardings,
                      Attribute::tensorShardingPerValue(std::move(list)));
}

Value shardableValue(Value value) {
  if (!value) return Value();
  if (Op edge = dataFlowEdgeOfTarget(value)) return edge.result(0);
  if (!value.isBlockArgument()) return value;
  if (isFuncArgument(value) || computationOfArgument(value)) return value;
  return Value();
}

std::optional<TensorSharding> valueSharding(Value value) {
  Value shardable = shardableValue(value);
  if (!shardable) return std::nullopt;
  if (computationOfArgument(shardable)) return ownerSharding(shardable);
  return getSharding(shardable);
}

bool setValueSharding(Value value, const TensorSharding& sharding) {
  Value shardable = shardableValue(value);
  if (!shardable) return false;
  if (computationOfArgument(shardable)) {
    setOwnerSharding(shardable, sharding);
    return true;
  }
  return setSharding(shardable, sharding);
}

void collectPostOrder(Block block, std::vector<Op>& out) {
  for (Op op : block) {
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        collectPostOrder(region.block(b), out);
      }
    }
    out.push_back(op);
  }
}

void collectPreOrder(Block block, std::vector<Op>& out) {
  for (Op op : block) {
    out.push_back(op);
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        collectPreOrder(region.block(b), out);
      }
    }
  }
}

}  // namespace shardkit::import_internal
