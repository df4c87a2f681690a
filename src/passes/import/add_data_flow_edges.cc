// -sdy-add-data-flow-edges.
#include <vector>

#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"
#include "shardkit/ir/sharding_site.h"
#include "shardkit/passes/import_passes.h"
#include "src/passes/collect_ops.h"

namespace shardkit {
namespace {

// What an edge op may wrap: a ranked tensor with a static shape (tokens and
// dynamic shapes are skipped).
bool isStaticShapedTensor(Type type) {
  return type && type.isRankedTensor() && type.hasStaticShape();
}

// Creates `sdy.data_flow_edge` of `owner` right after its definition (at the
// start of its block for a region argument) and makes every other use of
// `owner` use the edge.
void wrapOwner(Module& module, Value owner) {
  OperationState state(sdy::DataFlowEdgeOp::opName());
  state.operands = {owner};
  state.result_types = {owner.type()};
  if (std::optional<TensorSharding> sharding = getEdgeOwnerSharding(owner)) {
    state.addAttr("sharding", Attribute::tensorSharding(*sharding));
  }
  Op def = owner.definingOp();
  state.location =
      def ? def.location() : owner.ownerBlock().parentOp().location();
  Op edge = module.createOp(state);
  if (def) {
    def.parentBlock().insertAfter(def, edge);
  } else {
    owner.ownerBlock().pushFront(edge);
  }
  owner.replaceUsesWithIf(edge.result(0), [edge](const Value::Use& use) {
    return !(use.user() == edge);
  });
}

}  // namespace

absl::Status addDataFlowEdges(Module& module) {
  std::vector<Op> ops;
  for (Op func : module.functions()) {
    if (FuncOp(func).isDeclaration()) continue;
    passes_internal::collectPostOrder(FuncOp(func).body(), ops);
  }
  for (Op op : ops) {
    if (op.isErased() || !isDataFlowOp(op)) continue;
    std::vector<Value> owners = dataFlowEdgeOwners(op);
    // Each edge goes right after its owner (or first in the block), so
    // wrapping the owners last to first keeps the edges in owner order.
    for (auto it = owners.rbegin(); it != owners.rend(); ++it) {
      Value owner = *it;
      if (!isStaticShapedTensor(owner.type()) || dataFlowEdgeOp(owner)) {
        continue;
      }
      wrapOwner(module, owner);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
