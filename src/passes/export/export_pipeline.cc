// -sdy-export-pipeline and the registration of the export passes.
#include "shardkit/core/status_macros.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"

namespace shardkit {

absl::Status runExportPipeline(Module& module, const ExportOptions& options) {
  // Before the edges are sunk, while each split constant still carries the
  // sharding propagation gave it: copies that ended up alike merge again.
  SK_RETURN_IF_ERROR(
      mergeConstants(module, ConstantMergeMode::kConstantsOrScalars));
  SK_RETURN_IF_ERROR(sinkDataFlowEdges(module, options.sink));
  SK_RETURN_IF_ERROR(removeShardingGroups(module));
  SK_RETURN_IF_ERROR(shardingConstraintsToReshards(module));
  SK_RETURN_IF_ERROR(closeShardings(module));
  if (!options.keep_sharding_rules)
    SK_RETURN_IF_ERROR(dropShardingRules(module));
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
        "also sink the edges' sharding origins (default false)",
        PassOptionKind::kBool},
       {"sink-debug-propagation-edge-sharding",
        "also sink the edges' propagation edges (default false)",
        PassOptionKind::kBool}},
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
        "keep the op sharding rules propagation used (default false)",
        PassOptionKind::kBool},
       {"sink-debug-sharding-origins", "see -sdy-sink-data-flow-edges",
        PassOptionKind::kBool},
       {"sink-debug-propagation-edge-sharding", "see -sdy-sink-data-flow-edges",
        PassOptionKind::kBool}},
      [](Module& module, const PassOptions& options) -> absl::Status {
        ExportOptions export_options;
        SK_ASSIGN_OR_RETURN(export_options.sink, readSinkOptions(options));
        SK_ASSIGN_OR_RETURN(export_options.keep_sharding_rules,
                            options.getBool("keep-sharding-rules", false));
        return runExportPipeline(module, export_options);
      }});
}

}  // namespace shardkit
