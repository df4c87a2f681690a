// -sdy-export-pipeline and the registration of the export passes.
#include "shardkit/internal/phase_timing.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "shardkit/passes/symbol_dce.h"
#include "shardkit/propagation/debug_info.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

absl::Status canonicalizeOnly(Module& module, std::string_view label) {
  CanonicalizeOptions options;
  options.enabled_labels = {std::string(label)};
  return canonicalize(module, options);
}

// The partitioner's part: explicit reshards, and with explicit collectives
// the reshards lowered to collectives.
absl::Status runPartitioner(Module& module, const ExportOptions& options) {
  InsertExplicitReshardsOptions reshards;
  reshards.enable_full_version = options.enable_insert_explicit_collectives;
  reshards.threads = options.threads;
  SK_TIMED_RETURN_IF_ERROR("sdy-insert-explicit-reshards",
                           insertExplicitReshards(module, reshards));
  if (options.enable_insert_explicit_collectives) {
    SK_TIMED_RETURN_IF_ERROR("canonicalize (reshards)",
                             canonicalizeOnly(module, kReshardLabel));
    SK_TIMED_RETURN_IF_ERROR("sdy-reshard-to-collectives",
                             reshardToCollectives(module, {}));
  }
  // Lowering makes all-slices that may fuse with the all-reduces explicit
  // reshards inserted into reduce-scatters.
  SK_TIMED_RETURN_IF_ERROR("canonicalize (collectives)",
                           canonicalizeOnly(module, kCollectiveLabel));
  if (options.enable_insert_explicit_collectives &&
      options.remove_all_gather_reduce_scatter_for_cmv1) {
    SK_TIMED_RETURN_IF_ERROR("sdy-remove-all-gather-reduce-scatter-for-cmv1",
                             removeAllGatherReduceScatterForCmv1(module));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status runExportPipeline(Module& module, const ExportOptions& options) {
  // First the function data-flow edges give their shardings back to the
  // calls and functions, before the call graph is unflattened.
  // (-sdy-propagate-to-func-results and -sdy-insert-func-call-reshards belong
  // to the propagation pipeline, before this one, as in the reference.)
  SK_TIMED_RETURN_IF_ERROR("sdy-sink-func-data-flow-edges",
                           sinkFuncDataFlowEdges(module));
  SK_TIMED_RETURN_IF_ERROR(
      "sdy-unflatten-call-graph",
      unflattenCallGraph(module, options.dedup_functions_fully));
  SK_TIMED_RETURN_IF_ERROR("symbol-dce", symbolDce(module));
  // Before the edges are sunk, while each split constant still carries the
  // sharding propagation gave it: copies that ended up alike merge again.
  SK_TIMED_RETURN_IF_ERROR(
      "sdy-constant-or-scalar-merger",
      mergeConstants(module, ConstantMergeMode::kConstantsOrScalars));
  SK_TIMED_RETURN_IF_ERROR("sdy-sink-data-flow-edges",
                           sinkDataFlowEdges(module, options.sink));
  if (!options.avoid_export_for_partitioning) {
    SK_TIMED_RETURN_IF_ERROR("sdy-remove-sharding-groups",
                             removeShardingGroups(module));
    SK_TIMED_RETURN_IF_ERROR("sdy-sharding-constraint-to-reshard",
                             shardingConstraintsToReshards(module));
  }
  if (options.update_non_divisible_input_output_shardings) {
    SK_TIMED_RETURN_IF_ERROR("sdy-update-non-divisible-input-output-shardings",
                             updateNonDivisibleInputOutputShardings(module));
    // Only a program's entry point has a signature users see.
    if (mainFunction(module).ok()) {
      SK_TIMED_RETURN_IF_ERROR("sdy-remove-sub-axes-in-input-output-shardings",
                               removeSubAxesInInputOutputShardings(module));
    }
  }
  SK_TIMED_RETURN_IF_ERROR("sdy-close-shardings", closeShardings(module));
  if (!options.avoid_export_for_partitioning) {
    SK_TIMED_RETURN_IF_ERROR("partitioner", runPartitioner(module, options));
  }
  // The debug records describe the module as propagation left it; the
  // partitioned module drops them unless the caller keeps them.
  if (!options.keep_propagation_debug_info && options.sink.debug.any()) {
    removePropagationDebugInfo(module);
  }
  if (!options.keep_sharding_rules) {
    SK_TIMED_RETURN_IF_ERROR("sdy-drop-sharding-rules",
                             dropShardingRules(module));
  }
  if (options.inline_meshes) {
    SK_TIMED_RETURN_IF_ERROR("sdy-inline-meshes", inlineMeshes(module));
  }
  return absl::OkStatus();
}

namespace {

absl::StatusOr<SinkDataFlowEdgesOptions> readSinkOptions(
    const PassOptions& options) {
  SinkDataFlowEdgesOptions sink;
  SK_ASSIGN_OR_RETURN(sink.debug.sharding_origins,
                      options.getBool("sink-debug-sharding-origins", false));
  SK_ASSIGN_OR_RETURN(
      sink.debug.propagation_edges,
      options.getBool("sink-debug-propagation-edge-sharding", false));
  return sink;
}

absl::StatusOr<ExportOptions> readExportOptions(const PassOptions& options) {
  ExportOptions result;
  SK_ASSIGN_OR_RETURN(result.sink, readSinkOptions(options));
  // The reference's names for the same two switches.
  SK_ASSIGN_OR_RETURN(bool origins,
                      options.getBool("dump-sharding-origins", false));
  SK_ASSIGN_OR_RETURN(bool edges,
                      options.getBool("dump-propagation-edges", false));
  result.sink.debug |= DebugRecords{origins, edges};
  SK_ASSIGN_OR_RETURN(result.keep_sharding_rules,
                      options.getBool("keep-sharding-rules", false));
  SK_ASSIGN_OR_RETURN(result.avoid_export_for_partitioning,
                      options.getBool("avoid-export-for-partitioning", false));
  SK_ASSIGN_OR_RETURN(
      result.enable_insert_explicit_collectives,
      options.getBool("enable-insert-explicit-collectives", false));
  SK_ASSIGN_OR_RETURN(
      result.remove_all_gather_reduce_scatter_for_cmv1,
      options.getBool("remove-all-gather-reduce-scatter-for-cmv1", false));
  SK_ASSIGN_OR_RETURN(
      result.update_non_divisible_input_output_shardings,
      options.getBool("update-non-divisible-input-output-shardings", true));
  SK_ASSIGN_OR_RETURN(result.dedup_functions_fully,
                      options.getBool("dedup-functions-fully", false));
  SK_ASSIGN_OR_RETURN(result.inline_meshes,
                      options.getBool("inline-meshes", true));
  result.threads = options.threads();
  return result;
}

PassInfo mergerPass(const char* name, const char* description,
                    ConstantMergeMode mode) {
  return optionlessPass(name, description, [mode](Module& module) {
    return mergeConstants(module, mode);
  });
}

void registerExportPipelinePass() {
  registerPass(PassInfo{
      "sdy-export-pipeline",
      "Runs the export passes after sharding propagation: clean-up, "
      "explicit reshards and (optionally) collectives.",
      {{"keep-sharding-rules",
        "keep the op sharding rules propagation used (default false)",
        PassOptionKind::kBool},
       {"avoid-export-for-partitioning",
        "keep sharding constraints and insert no reshards, so that the "
        "module can be propagated again (default false)",
        PassOptionKind::kBool},
       {"enable-insert-explicit-collectives",
        "insert explicit reshards on every op and lower them to collectives "
        "(default false)",
        PassOptionKind::kBool},
       {"remove-all-gather-reduce-scatter-for-cmv1",
        "with explicit collectives, drop all-gathers into and "
        "reduce-scatters out of dots (default false)",
        PassOptionKind::kBool},
       {"update-non-divisible-input-output-shardings",
        "make the main function's inputs and outputs evenly sharded, without "
        "sub-axes in open dimensions (default true)",
        PassOptionKind::kBool},
       {"dedup-functions-fully",
        "see -sdy-unflatten-call-graph (default false)", PassOptionKind::kBool},
       {"inline-meshes",
        "write every mesh inline and drop the sdy.mesh ops, as the "
        "reference's export does (default true)",
        PassOptionKind::kBool},
       {"dump-sharding-origins", "see -sdy-sink-data-flow-edges",
        PassOptionKind::kBool},
       {"dump-propagation-edges", "see -sdy-sink-data-flow-edges",
        PassOptionKind::kBool},
       {"sink-debug-sharding-origins", "see -sdy-sink-data-flow-edges",
        PassOptionKind::kBool},
       {"sink-debug-propagation-edge-sharding", "see -sdy-sink-data-flow-edges",
        PassOptionKind::kBool}},
      [](Module& module, const PassOptions& options) -> absl::Status {
        SK_ASSIGN_OR_RETURN(ExportOptions export_options,
                            readExportOptions(options));
        return runExportPipeline(module, export_options);
      }});
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
  registerPass(
      optionlessPass("sdy-drop-sharding-and-mesh",
                     "Removes every sdy.sharding attribute and every mesh.",
                     dropShardingAndMesh));
  registerPass(mergerPass("sdy-constant-merger",
                          "Merges identical constants with identical "
                          "shardings in the same block.",
                          ConstantMergeMode::kConstants));
  registerPass(mergerPass("sdy-constant-or-scalar-merger",
                          "Merges identical constants and scalar broadcasts "
                          "with identical shardings in the same block.",
                          ConstantMergeMode::kConstantsOrScalars));
  registerExportPipelinePass();
  registerInputOutputShardingPasses();
  registerResolveSingleDeviceShardingPass();
  registerRemoveAllGatherReduceScatterForCmv1Pass();
  registerPass(optionlessPass(
      "sdy-check-collectives",
      "Simulates the sdy collectives of every function on host data and "
      "fails at the first one whose result is not what its out sharding "
      "demands.",
      checkCollectives));
}

}  // namespace shardkit
