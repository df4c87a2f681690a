// -sdy-add-data-flow-edges.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/import_passes.h"
#include "src/passes/import/data_flow_edges.h"
#include "src/passes/wrap_value.h"

namespace shardkit {
namespace passes_internal {

bool isStaticShapedTensor(Type type) {
  return type && tensorViewOf(type) && type.hasStaticShape();
}

void addDataFlowEdgesOf(Module& module, Op op) {
  // The edges of the body arguments go first in the body, those of the
  // results right after the op, each group in owner order.
  Op anchor;
  Block anchor_block;
  for (Value owner : dataFlowEdgeOwners(op)) {
    if (!isStaticShapedTensor(owner.type()) || dataFlowEdgeOp(owner)) continue;
    Block block = owner.isBlockArgument() ? owner.ownerBlock() : Block();
    if (!(block == anchor_block)) anchor = Op();
    anchor_block = block;
    OperationState state(sdy::DataFlowEdgeOp::opName());
    if (std::optional<TensorSharding> sharding = getEdgeOwnerSharding(owner)) {
      state.addAttr("sharding", Attribute::of(*sharding));
    }
    Op def = owner.definingOp();
    state.location =
        def ? def.location() : owner.ownerBlock().parentOp().location();
    anchor = wrapValue(module, std::move(state), owner, anchor);
  }
}

}  // namespace passes_internal

absl::Status addDataFlowEdges(Module& module) {
  if (!module.mayHaveOpsWith(OpTrait::kDataFlowEdges)) return absl::OkStatus();
  std::vector<Op> ops;
  for (FuncOp func : functionDefinitions(module)) {
    ir_internal::collectPostOrder(func.body(), ops);
  }
  for (Op op : ops) {
    if (op.isErased() || !isDataFlowOp(op)) continue;
    passes_internal::addDataFlowEdgesOf(module, op);
  }
  return absl::OkStatus();
}

}  // namespace shardkit
