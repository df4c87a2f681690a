#include "shardkit/ir/data_flow.h"

#include <string_view>

#include "shardkit/ir/sdy_ops.h"
#include "shardkit/ir/sharding_access.h"
#include "shardkit/ir/stablehlo_ops.h"

namespace shardkit {
namespace {

bool isComputation(Op op) {
  return isa<sdy::NamedComputationOp, sdy::ManualComputationOp>(op);
}

// The terminator of `region`'s only block, or null.
Op terminatorOf(Region region) {
  if (region.numBlocks() != 1) return Op();
  Block block = region.front();
  return block.empty() ? Op() : block.back();
}

std::string_view ownerShardingList(Value owner) {
  return owner.isBlockArgument() ? "in_shardings" : "out_shardings";
}

}  // namespace

bool isDataFlowOp(Op op) { return op && op.hasTrait(OpTrait::kDataFlowEdges); }

std::vector<Value> dataFlowEdgeOwners(Op op) {
  std::vector<Value> owners;
  if (!isDataFlowOp(op)) return owners;
  if (isComputation(op) && op.numRegions() == 1 &&
      op.region(0).numBlocks() == 1) {
    for (Value arg : op.region(0).front().arguments()) owners.push_back(arg);
  }
  for (Value result : op.results()) owners.push_back(result);
  return owners;
}

std::optional<DataFlowEdge> dataFlowEdgeOf(Value owner) {
  DataFlowEdge edge;
  edge.owner = owner;
  if (owner.isBlockArgument()) {
    Block block = owner.ownerBlock();
    Op op = block.parentOp();
    if (!op || !isComputation(op) || !(block == op.region(0).front())) {
      return std::nullopt;
    }
    if (owner.index() >= op.numOperands()) return std::nullopt;
    edge.op = op;
    edge.sources.push_back(op.operand(owner.index()));
    return edge;
  }
  Op op = owner.definingOp();
  if (!isDataFlowOp(op)) return std::nullopt;
  edge.op = op;
  unsigned i = owner.index();
  if (isa<stablehlo::OptimizationBarrierOp>(op)) {
    edge.sources.push_back(op.operand(i));
  } else if (isa<stablehlo::WhileOp>(op)) {
    if (i >= op.numOperands() || op.numRegions() != 2) return std::nullopt;
    edge.sources.push_back(op.operand(i));
    if (Op ret = terminatorOf(op.region(1)); ret && i < ret.numOperands()) {
      edge.sources.push_back(ret.operand(i));
    }
    for (unsigned r = 0; r < 2; ++r) {
      if (op.region(r).numBlocks() == 1 &&
          i < op.region(r).front().numArguments()) {
        edge.non_owner_targets.push_back(op.region(r).front().argument(i));
      }
    }
  } else if (isa<stablehlo::CaseOp>(op)) {
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      if (Op ret = terminatorOf(op.region(r)); ret && i < ret.numOperands()) {
        edge.sources.push_back(ret.operand(i));
      }
    }
  } else {  // named/manual computation result
    if (Op ret = terminatorOf(op.region(0)); ret && i < ret.numOperands()) {
      edge.sources.push_back(ret.operand(i));
    }
  }
  return edge;
}

std::optional<Value> edgeOwnerOfSource(Op user, unsigned operand_index) {
  if (isDataFlowOp(user)) {
    if (isa<stablehlo::WhileOp, stablehlo::OptimizationBarrierOp>(user)) {
      return user.result(operand_index);
    }
    if (isComputation(user) && user.numRegions() == 1 &&
        user.region(0).numBlocks() == 1 &&
        operand_index < user.region(0).front().numArguments()) {
      return user.region(0).front().argument(operand_index);
    }
    return std::nullopt;
  }
  // A terminator returning a value of a data-flow op's region.
  Op parent = user.parentOp();
  if (!parent || !isDataFlowOp(parent) || user.nextInBlock())
    return std::nullopt;
  if (isa<stablehlo::WhileOp>(parent)) {
    // Only the body's terminator (region 1) feeds the edges.
    if (!(user.parentBlock().parentRegion() == parent.region(1)))
      return std::nullopt;
  } else if (isa<stablehlo::OptimizationBarrierOp>(parent)) {
    return std::nullopt;
  }
  if (operand_index >= parent.numResults()) return std::nullopt;
  return parent.result(operand_index);
}

Op dataFlowEdgeOpOf(Value owner) {
  for (const Value::Use& use : owner.uses()) {
    Op user = use.user();
    if (isa<sdy::DataFlowEdgeOp>(user)) return user;
  }
  return Op();
}

std::optional<TensorSharding> getEdgeOwnerSharding(Value owner) {
  Op op = owner.isBlockArgument() ? owner.ownerBlock().parentOp()
                                  : owner.definingOp();
  if (op && isComputation(op)) {
    const TensorShardingPerValue* list =
        op.attr(ownerShardingList(owner)).asTensorShardingPerValue();
    if (list && owner.index() < list->shardings.size()) {
      return list->shardings[owner.index()];
    }
    return std::nullopt;
  }
  if (owner.isBlockArgument()) return std::nullopt;
  return getSharding(owner);
}

void setEdgeOwnerSharding(Value owner, const TensorSharding& sharding) {
  Op op = owner.isBlockArgument() ? owner.ownerBlock().parentOp()
                                  : owner.definingOp();
  if (op && isComputation(op)) {
    std::string_view list_name = ownerShardingList(owner);
    unsigned count = owner.isBlockArgument()
                         ? op.region(0).front().numArguments()
                         : op.numResults();
    TensorShardingPerValue list;
    if (const TensorShardingPerValue* existing =
            op.attr(list_name).asTensorShardingPerValue()) {
      list = *existing;
    }
    if (list.shardings.size() != count) {
      list.shardings.clear();
      for (unsigned i = 0; i < count; ++i) {
        Type type = owner.isBlockArgument()
                        ? op.region(0).front().argument(i).type()
                        : op.result(i).type();
        list.shardings.push_back(
            TensorSharding::fullyOpen(sharding.mesh, type.rank()));
      }
    }
    list.shardings[owner.index()] = sharding;
    op.setAttr(list_name, Attribute::tensorShardingPerValue(std::move(list)));
    return;
  }
  if (!owner.isBlockArgument()) setSharding(owner, sharding);
}

}  // namespace shardkit
