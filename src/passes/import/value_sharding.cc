#include "src/passes/import/value_sharding.h"

#include <string_view>
#include <utility>

#include "shardkit/ir/data_flow.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"
#include "shardkit/ir/sharding_access.h"
#include "shardkit/ir/stablehlo_ops.h"

namespace shardkit::import_internal {
namespace {

constexpr std::string_view kInShardings = "in_shardings";

bool isFuncArgument(Value arg) {
  Block block = arg.ownerBlock();
  Op parent = block.parentOp();
  return isa<FuncOp>(parent) && parent.region(0).front() == block;
}

}  // namespace

bool isStaticShapedTensor(Type type) {
  return type && type.isRankedTensor() && type.hasStaticShape();
}

Value edgeOwnerOfTarget(Value target) {
  if (!target) return Value();
  if (!target.isBlockArgument()) {
    return isDataFlowOp(target.definingOp()) ? target : Value();
  }
  if (computationOfArgument(target)) return target;
  Op parent = target.ownerBlock().parentOp();
  if (isa<stablehlo::WhileOp>(parent) && target.index() < parent.numResults()) {
    return parent.result(target.index());
  }
  return Value();
}

Op dataFlowEdgeUser(Value owner) {
  if (!owner || !owner.hasOneUse()) return Op();
  Op user = owner.uses().front().user();
  return isa<sdy::DataFlowEdgeOp>(user) ? user : Op();
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
  if (isa<sdy::ManualComputationOp>(computation)) {
    return withoutManualAxes(sharding, manualAxesOf(computation));
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
  slot = isa<sdy::ManualComputationOp>(computation)
             ? withManualAxesOf(slot, sharding, manualAxesOf(computation))
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
