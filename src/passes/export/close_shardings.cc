// -sdy-close-shardings and the registration of the export passes.
#include <string_view>
#include <vector>

#include "shardkit/core/status_macros.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "src/passes/import/sharding_walker.h"
#include "src/passes/import/value_sharding.h"

namespace shardkit {
namespace {

std::vector<AxisRef> keepManual(const std::vector<AxisRef>& axes,
                                const ManualAxes& manual) {
  std::vector<AxisRef> kept;
  for (const AxisRef& axis : axes) {
    if (manual.contains(axis.name)) kept.push_back(axis);
  }
  return kept;
}

// Every dimension closed (axes and priority kept); replicated and unreduced
// axes dropped, except the manual axes of a manual computation's shardings,
// which say how the computation is split rather than what propagation found.
TensorSharding closedLike(const TensorSharding& sharding,
                          const import_internal::ShardingSite& site) {
  TensorSharding closed = sharding;
  for (DimensionSharding& dim : closed.dim_shardings) dim.is_closed = true;
  ManualAxes manual;
  if (import_internal::isManualComputation(site.op) &&
      (site.attr == "in_shardings" || site.attr == "out_shardings")) {
    manual = import_internal::manualAxesOf(site.op);
  }
  closed.replicated_axes = keepManual(sharding.replicated_axes, manual);
  closed.unreduced_axes = keepManual(sharding.unreduced_axes, manual);
  return closed;
}

}  // namespace

absl::Status closeShardings(Module& module) {
  import_internal::transformShardings(module, closedLike);
  return absl::OkStatus();
}

void registerExportPasses() {
  registerPass(PassInfo{
      "sdy-sink-data-flow-edges",
      "Moves the sharding of each sdy.data_flow_edge to its owner's op and "
      "replaces the edge by its input.",
      {{"sink-debug-sharding-origins",
        "also sink the edges' sharding origins (default false)"},
       {"sink-debug-propagation-edge-sharding",
        "also sink the edges' propagation edges (default false)"}},
      [](Module& module, const PassOptions& options) -> absl::Status {
        SinkDataFlowEdgesOptions sink;
        SK_ASSIGN_OR_RETURN(
            sink.sink_debug_sharding_origins,
            options.getBool("sink-debug-sharding-origins", false));
        SK_ASSIGN_OR_RETURN(
            sink.sink_debug_propagation_edge_sharding,
            options.getBool("sink-debug-propagation-edge-sharding", false));
        return sinkDataFlowEdges(module, sink);
      }});
  registerPass(PassInfo{"sdy-close-shardings",
                        "Closes tensor shardings and drops replicated axes.",
                        {},
                        [](Module& module, const PassOptions&) {
                          return closeShardings(module);
                        }});
}

}  // namespace shardkit
