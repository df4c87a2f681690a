// -sdy-export-pipeline and the registration of the export passes.
#include "shardkit/core/status_macros.h"
#include "shardkit/ir/phase_timing.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"

namespace shardkit {

absl::Status runExportPipeline(Module& module, const ExportOptions& options) {
  // Before the edges are sunk, while each split constant still carries the
  // sharding propagation gave it: copies that ended up alike merge again.
  SK_TIMED_RETURN_IF_ERROR(
      "sdy-constant-or-scalar-merger",
      mergeConstants(module, ConstantMergeMode::kConstantsOrScalars));
  SK_TIMED_RETURN_IF_ERROR("sdy-sink-data-flow-edges",
                           sinkDataFlowEdges(module, options.sink));
  SK_TIMED_RETURN_IF_ERROR("sdy-remove-sharding-groups",
                           removeShardingGroups(module));
  SK_TIMED_RETURN_IF_ERROR("sdy-sharding-constraint-to-reshard",
                           shardingConstraintsToReshards(module));
  SK_TIMED_RETURN_IF_ERROR("sdy-close-shardings", closeShardings(module));
  if (!options.keep_sharding_rules) {
    SK_TIMED_RETURN_IF_ERROR("sdy-drop-sharding-rules",
                             dropShardingRules(module));
  }
  return absl::OkStatus();
}

namespace {

absl::StatusOr<SinkDataFlowEdgesOptions> readSinkOptions(
    const PassOptions& options) {
  SinkDataFlowEdgesOptions sink;
  SK_ASSIGN_OR_RETURN(sink.sink_debug_sharding_origins,
                      options.getBool("sink-debug-sharding-origins", false));
  SK_ASSIGN_OR_RETURN(
      sink.sink_debug_propagation_edge_sharding,
      options.getBool("sink-debug-propagation-edge-sharding", false));
  return sink;
}

PassInfo mergerPass(const char* name, const char* description,
                    ConstantMergeMode mode) {
  return optionlessPass(name, description, [mode](Module& module) {
    return mergeConstants(module, mode);
  });
}

}  // namespace

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
        SK_ASSIGN_OR_RETURN(SinkDataFlowEdgesOptions sink,
                            readSinkOptions(options));
        return sinkDataFlowEdges(module, sink);
      }});
  registerPass(optionlessPass(
      "sdy-close-shardings",
      "Closes tensor shardings and drops replicated axes.", closeShardings));
  registerPass(optionlessPass("sdy-remove-sharding-groups",
                              "Removes sdy.sharding_group ops.",
                              removeShardingGroups));
  registerPass(
      optionlessPass("sdy-sharding-constraint-to-reshard",
                     "Replaces sdy.sharding_constraint ops by sdy.reshard ops.",
                     shardingConstraintsToReshards));
  registerPass(optionlessPass("sdy-drop-sharding-rules",
                              "Removes the sdy.sharding_rule attributes.",
                              dropShardingRules));
  registerPass(mergerPass("sdy-constant-merger",
                          "Merges identical constants with identical "
                          "shardings in the same block.",
                          ConstantMergeMode::kConstants));
  registerPass(mergerPass("sdy-constant-or-scalar-merger",
                          "Merges identical constants and scalar broadcasts "
                          "with identical shardings in the same block.",
                          ConstantMergeMode::kConstantsOrScalars));
  registerPass(PassInfo{
      "sdy-export-pipeline",
      "Runs the export passes that clean up after sharding propagation.",
      {{"keep-sharding-rules",
        "keep the op sharding rules propagation used (default false)"},
       {"sink-debug-sharding-origins", "see -sdy-sink-data-flow-edges"},
       {"sink-debug-propagation-edge-sharding",
        "see -sdy-sink-data-flow-edges"}},
      [](Module& module, const PassOptions& options) -> absl::Status {
        ExportOptions export_options;
        SK_ASSIGN_OR_RETURN(export_options.sink, readSinkOptions(options));
        SK_ASSIGN_OR_RETURN(export_options.keep_sharding_rules,
                            options.getBool("keep-sharding-rules", false));
        return runExportPipeline(module, export_options);
      }});
}

}  // namespace shardkit
