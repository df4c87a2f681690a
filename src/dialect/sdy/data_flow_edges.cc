// Data-flow edges: owners, sources, targets and edge ops (sharding_site.h),
// and the function data-flow edges between functions and their calls.
#include <string_view>

#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/data_flow_shapes.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"

namespace shardkit {
namespace {

bool isComputation(Op op) {
  return isa<sdy::NamedComputationOp, sdy::ManualComputationOp>(op) ||
         registeredDataFlowShape(op) == DataFlowShape::kComputation;
}

bool isLoop(Op op) {
  return registeredDataFlowShape(op) == DataFlowShape::kLoop;
}

bool isEntryBlock(Block block) { return block.parentRegion().front() == block; }

// The terminator of `region`'s only block, or null.
Op terminatorOf(Region region) {
  if (region.numBlocks() != 1) return Op();
  Block block = region.front();
  return block.empty() ? Op() : block.back();
}

const TensorSharding* listEntry(Op op, std::string_view attr, unsigned i) {
  const TensorShardingPerValue* list =
      op.attr(attr).as<TensorShardingPerValue>();
  if (!list || i >= list->size()) return nullptr;
  return &(*list)[i];
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
  if (!isa<sdy::ManualComputationOp>(info.computation)) return std::nullopt;
  info.manual = manualAxesOf(info.computation);
  if (info.manual.empty()) return std::nullopt;
  info.index = owner.index();
  return info;
}

// The sole user of `value` if it is an `EdgeOp`. Asked of every value that
// may own an edge by passes that read shardings; most modules have no such
// edges, and a value's user is seldom in cache: the module's op-name set
// answers first.
template <typename EdgeOp>
Op soleEdgeUser(Value value) {
  if (!value || !value.module()->mayHaveOpsNamed(EdgeOp::opName())) {
    return Op();
  }
  Op user = value.soleUser();
  return isa<EdgeOp>(user) ? user : Op();
}

}  // namespace

bool isDataFlowOp(Op op) {
  return op && op.opName().hasTrait(OpTrait::kDataFlowEdges);
}

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

Value edgeOwnerOfTarget(Value target) {
  if (!target) return Value();
  if (!target.isBlockArgument()) {
    return isDataFlowOp(target.definingOp()) ? target : Value();
  }
  if (computationOfArgument(target)) return target;
  // A while's cond and body arguments are targets of its results' edges.
  Block block = target.ownerBlock();
  Op parent = block.parentOp();
  if ((isa<stablehlo::WhileOp>(parent) || isLoop(parent)) &&
      isEntryBlock(block) && target.index() < parent.numResults()) {
    return parent.result(target.index());
  }
  return Value();
}

Value edgeOwnerOfSource(Op user, unsigned operand_index) {
  if (isDataFlowOp(user)) {
    if (isa<stablehlo::WhileOp, stablehlo::OptimizationBarrierOp>(user) ||
        isLoop(user)) {
      return operand_index < user.numResults() ? user.result(operand_index)
                                               : Value();
    }
    if (isComputation(user) && user.numRegions() == 1 &&
        user.region(0).numBlocks() == 1 &&
        operand_index < user.region(0).front().numArguments()) {
      return user.region(0).front().argument(operand_index);
    }
    return Value();
  }
  // A terminator returning a value of a data-flow op's region.
  Op parent = user.parentOp();
  if (!parent || !isDataFlowOp(parent) || user.nextInBlock()) return Value();
  if (isa<stablehlo::WhileOp>(parent)) {
    // Only the body's terminator (region 1) feeds the edges.
    if (!(user.parentBlock().parentRegion() == parent.region(1))) {
      return Value();
    }
  } else if (isa<stablehlo::OptimizationBarrierOp>(parent)) {
    return Value();
  }
  if (operand_index >= parent.numResults()) return Value();
  return parent.result(operand_index);
}

Op dataFlowEdgeOp(Value owner) {
  return soleEdgeUser<sdy::DataFlowEdgeOp>(owner);
}

std::optional<DataFlowEdge> dataFlowEdgeOf(Value owner) {
  DataFlowEdge edge;
  edge.owner = owner;
  if (owner.isBlockArgument()) {
    Op op = computationOfArgument(owner);
    if (!op || owner.index() >= op.numOperands()) return std::nullopt;
    edge.op = op;
    edge.addSource(op, owner.index());
    return edge;
  }
  Op op = owner.definingOp();
  if (!isDataFlowOp(op)) return std::nullopt;
  edge.op = op;
  unsigned i = owner.index();
  if (isa<stablehlo::OptimizationBarrierOp>(op)) {
    edge.addSource(op, i);
  } else if (isa<stablehlo::WhileOp>(op)) {
    if (i >= op.numOperands() || op.numRegions() != 2) return std::nullopt;
    edge.addSource(op, i);
    if (Op ret = terminatorOf(op.region(1)); ret && i < ret.numOperands()) {
      edge.addSource(ret, i);
    }
    for (unsigned r = 0; r < 2; ++r) {
      if (op.region(r).numBlocks() == 1 &&
          i < op.region(r).front().numArguments()) {
        edge.non_owner_targets.push_back(op.region(r).front().argument(i));
      }
    }
  } else if (isLoop(op)) {
    if (i >= op.numOperands() || op.numRegions() != 1) return std::nullopt;
    edge.addSource(op, i);
    if (Op ret = terminatorOf(op.region(0)); ret && i < ret.numOperands()) {
      edge.addSource(ret, i);
    }
    if (op.region(0).numBlocks() == 1 &&
        i < op.region(0).front().numArguments()) {
      edge.non_owner_targets.push_back(op.region(0).front().argument(i));
    }
  } else if (isa<stablehlo::CaseOp>(op)) {
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      if (Op ret = terminatorOf(op.region(r)); ret && i < ret.numOperands()) {
        edge.addSource(ret, i);
      }
    }
  } else {  // named/manual computation result
    if (Op ret = terminatorOf(op.region(0)); ret && i < ret.numOperands()) {
      edge.addSource(ret, i);
    }
  }
  return edge;
}

Op funcDataFlowEdgeOp(Value target) {
  return soleEdgeUser<sdy::FuncDataFlowEdgeOp>(target);
}

std::vector<OperandRef> funcEdgeSourceUses(Op edge, const CallGraph& calls) {
  std::vector<OperandRef> sources;
  if (edge.numOperands() != 1) return sources;
  Value target = edge.operand(0);
  unsigned i = target.index();
  if (target.isBlockArgument()) {
    FuncOp func = dynCast<FuncOp>(target.ownerBlock().parentOp());
    for (Op call : calls.callsTo(func)) {
      if (i < call.numOperands()) sources.push_back(OperandRef{call, i});
    }
    return sources;
  }
  FuncOp callee = calls.calleeOf(target.definingOp());
  if (Op ret = callee ? callee.returnOp() : Op();
      ret && i < ret.numOperands()) {
    sources.push_back(OperandRef{ret, i});
  }
  return sources;
}

void appendFuncEdgesOfSource(Op user, unsigned index, const CallGraph& calls,
                             std::vector<Op>& out) {
  if (isa<func::CallOp>(user)) {
    FuncOp callee = calls.calleeOf(user);
    if (Block body = callee ? callee.body() : Block();
        body && index < body.numArguments()) {
      if (Op edge = funcDataFlowEdgeOp(body.argument(index))) {
        out.push_back(edge);
      }
    }
    return;
  }
  FuncOp func = dynCast<FuncOp>(user.parentOp());
  if (!isa<func::ReturnOp>(user) || !func) return;
  for (Op call : calls.callsTo(func)) {
    if (index >= call.numResults()) continue;
    if (Op edge = funcDataFlowEdgeOp(call.result(index))) out.push_back(edge);
  }
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
    if (!outer) {
      return stored ? std::optional<TensorSharding>(*stored) : std::nullopt;
    }
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
