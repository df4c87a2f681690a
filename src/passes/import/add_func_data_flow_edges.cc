// -sdy-add-func-data-flow-edges.
#include <optional>
#include <utility>
#include <vector>

#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/import/data_flow_edges.h"
#include "src/passes/wrap_value.h"

namespace shardkit {
namespace {

// Wraps each of `targets` that can have an edge and has none in an
// `sdy.func_data_flow_edge` with its current sharding, in target order.
void wrapTargets(Module& module, const std::vector<Value>& targets,
                 uint32_t location) {
  Op anchor;
  for (Value target : targets) {
    if (!passes_internal::isStaticShapedTensor(target.type()) ||
        funcDataFlowEdgeOp(target)) {
      continue;
    }
    OperationState state(sdy::FuncDataFlowEdgeOp::opName());
    state.location = location;
    if (std::optional<TensorSharding> sharding = getEdgeOwnerSharding(target)) {
      state.discardable_attrs.set(kShardingAttr,
                                  ShardingAttrs::of(*sharding).per_value);
    }
    anchor =
        passes_internal::wrapValue(module, std::move(state), target, anchor);
  }
}

}  // namespace

absl::Status addFuncDataFlowEdges(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(module));
  for (FuncOp func : calls.functions()) {
    if (calls.isEntry(func) || func.isDeclaration()) continue;
    wrapTargets(module, func.body().arguments(), func->location());
  }
  for (FuncOp func : calls.functions()) {
    for (Op call : calls.callsIn(func)) {
      wrapTargets(module, call.results(), call.location());
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
