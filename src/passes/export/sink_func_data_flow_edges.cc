// -sdy-sink-func-data-flow-edges.
#include <optional>
#include <vector>

#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/call_passes.h"

namespace shardkit {

absl::Status sinkFuncDataFlowEdges(Module& module) {
  if (!module.mayHaveOpsNamed(sdy::FuncDataFlowEdgeOp::opName())) {
    return absl::OkStatus();
  }
  std::vector<Op> ops = ir_internal::collectFunctionBodiesPreOrder(module);
  for (Op op : ops) {
    if (!isa<sdy::FuncDataFlowEdgeOp>(op) || op.numOperands() != 1 ||
        op.numResults() != 1) {
      continue;
    }
    Value input = op.operand(0);
    // The edge's own sharding (its `sdy.sharding`), not its input's.
    std::optional<TensorSharding> edge = getEdgeOwnerSharding(op.result(0));
    if (edge) {
      setEdgeOwnerSharding(input, *edge);
    } else if (std::optional<TensorSharding> old =
                   getEdgeOwnerSharding(input)) {
      setEdgeOwnerSharding(input,
                           TensorSharding::fullyOpen(old->mesh, old->rank()));
    }
    op.result(0).replaceAllUsesWith(input);
    op.erase();
  }
  return absl::OkStatus();
}

}  // namespace shardkit
