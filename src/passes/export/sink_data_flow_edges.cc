// -sdy-sink-data-flow-edges.
#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"

namespace shardkit {
namespace {

// Moves the shardings of the edges of `owners` (all arguments or all results
// of one op) onto the op. Owners without an edge sharding get a fully open
// one on the mesh of the first edge that has one; nothing changes if none
// has.
void sinkShardings(const std::vector<Value>& owners) {
  std::vector<std::optional<TensorSharding>> shardings;
  std::optional<MeshOrRef> mesh;
  for (Value owner : owners) {
    std::optional<TensorSharding> sharding;
    if (Op edge = dataFlowEdgeOp(owner)) {
      if (const TensorSharding* s =
              edge.attr("sharding").as<TensorSharding>()) {
        sharding = *s;
        if (!mesh) mesh = s->mesh;
      }
    }
    shardings.push_back(std::move(sharding));
  }
  if (!mesh) return;
  for (size_t i = 0; i < owners.size(); ++i) {
    setEdgeOwnerSharding(owners[i],
                         shardings[i].value_or(TensorSharding::fullyOpen(
                             *mesh, owners[i].type().rank())));
  }
}

// Collects `attr.op` of each owner's edge into one array on `op`, as the
// reference does: owners whose edge has no record are left out (so the array
// can be shorter than the owners), and the array is set even when empty.
void sinkDebugAttr(Op op, const std::vector<Value>& owners,
                   const DebugAttrNames& attr, bool arguments) {
  std::vector<Attribute> entries;
  for (Value owner : owners) {
    Op edge = dataFlowEdgeOp(owner);
    if (!edge) continue;
    const Attribute& value = edge.attr(attr.op);
    const PropagationEdges* edges = value.as<PropagationEdges>();
    if (value.asDict() || (edges && !edges->empty())) {
      entries.push_back(value);
    }
  }
  op.setAttr(arguments ? attr.block_arg : attr.result,
             Attribute::array(std::move(entries)));
}

void sinkOwners(Op op, const std::vector<Value>& owners, bool arguments,
                const SinkDataFlowEdgesOptions& options) {
  sinkShardings(owners);
  if (options.debug.sharding_origins) {
    sinkDebugAttr(op, owners, kShardingOriginsAttrs, arguments);
  }
  if (options.debug.propagation_edges) {
    sinkDebugAttr(op, owners, kPropagationEdgesAttrs, arguments);
  }
}

void sinkOwnersOf(Op op, const SinkDataFlowEdgesOptions& options) {
  std::vector<Value> arguments, results;
  for (Value owner : dataFlowEdgeOwners(op)) {
    (owner.isBlockArgument() ? arguments : results).push_back(owner);
  }
  sinkOwners(op, arguments, /*arguments=*/true, options);
  sinkOwners(op, results, /*arguments=*/false, options);
}

void eraseEdge(Op edge) {
  edge.result(0).replaceAllUsesWith(edge.operand(0));
  edge.erase();
}

}  // namespace

void sinkDataFlowEdgesOf(Op op, const SinkDataFlowEdgesOptions& options) {
  sinkOwnersOf(op, options);
  for (Value owner : dataFlowEdgeOwners(op)) {
    if (Op edge = dataFlowEdgeOp(owner)) eraseEdge(edge);
  }
}

absl::Status sinkDataFlowEdges(Module& module,
                               const SinkDataFlowEdgesOptions& options) {
  // Without edges only the debug records would change (set even when empty).
  if (!module.mayHaveOpsNamed(sdy::DataFlowEdgeOp::opName()) &&
      !options.debug.sharding_origins && !options.debug.propagation_edges) {
    return absl::OkStatus();
  }
  std::vector<Op> ops = ir_internal::collectFunctionBodiesPreOrder(module);
  // A data-flow op comes before its edges (they are its users or inside its
  // regions), so its shardings are taken before the edges go away.
  for (Op op : ops) {
    if (op.isErased()) continue;
    if (isa<sdy::DataFlowEdgeOp>(op)) {
      eraseEdge(op);
    } else if (isDataFlowOp(op)) {
      sinkOwnersOf(op, options);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
