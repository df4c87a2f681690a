// -sdy-import-pipeline and the registration of the import passes.
#include "shardkit/internal/phase_timing.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/passes/gspmd_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/symbol_dce.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/pass_list.h"

namespace shardkit {

absl::Status runImportPipeline(Module& module,
                               const ImportPipelineOptions& options) {
  if (options.gspmd_shardings) {
    SK_TIMED_RETURN_IF_ERROR("sdy-import-gspmd-shardings",
                             importGspmdShardings(module, options.gspmd_mesh));
  }
  SK_TIMED_RETURN_IF_ERROR("symbol-dce", symbolDce(module));
  // Before calls become named computations, which take their out shardings
  // from the call.
  SK_TIMED_RETURN_IF_ERROR("sdy-propagate-sharding-from-func-to-call",
                           propagateShardingFromFuncToCall(module));
  if (!options.dedup_functions_fully) {
    SK_TIMED_RETURN_IF_ERROR("sdy-flatten-call-graph",
                             flattenCallGraph(module));
    SK_TIMED_RETURN_IF_ERROR("symbol-dce", symbolDce(module));
    SK_TIMED_RETURN_IF_ERROR("sdy-import-func-calls", importFuncCalls(module));
    SK_TIMED_RETURN_IF_ERROR("symbol-dce", symbolDce(module));
  }
  // Clean-up passes that make the module simpler to read and propagate...
  SK_TIMED_RETURN_IF_ERROR("sdy-lift-inlined-meshes",
                           liftInlinedMeshes(module));
  SK_TIMED_RETURN_IF_ERROR("sdy-remove-size-one-axes",
                           removeSizeOneAxes(module));
  SK_TIMED_RETURN_IF_ERROR(
      "sdy-constant-or-scalar-splitter",
      splitConstants(module, ConstantSplitMode::kConstantsOrScalars));
  SK_TIMED_RETURN_IF_ERROR("sdy-manual-axes-cleanup",
                           cleanupManualAxes(module));
  // ...then the scaffolding propagation itself relies on.
  SK_TIMED_RETURN_IF_ERROR("sdy-add-data-flow-edges", addDataFlowEdges(module));
  SK_TIMED_RETURN_IF_ERROR("sdy-apply-sharding-constraints",
                           applyShardingConstraints(module));
  // After the constraints are applied, so that group members with shardings
  // from constraints are seen.
  SK_TIMED_RETURN_IF_ERROR("sdy-sharding-group-import",
                           importShardingGroups(module));
  return absl::OkStatus();
}

namespace {

PassInfo splitterPass(const char* name, const char* description,
                      ConstantSplitMode mode) {
  return PassInfo{
      name, description, {}, [mode](Module& module, const PassOptions&) {
        return splitConstants(module, mode);
      }};
}

}  // namespace

void registerImportPasses() {
  registerPass(optionlessPass(
      "sdy-lift-inlined-meshes",
      "Lifts inlined meshes in shardings into sdy.mesh symbols, deduplicating "
      "identical meshes.",
      liftInlinedMeshes));
  registerPass(optionlessPass(
      "sdy-add-data-flow-edges",
      "Inserts an sdy.data_flow_edge for every data-flow edge owner.",
      addDataFlowEdges));
  registerPass(
      optionlessPass("sdy-remove-size-one-axes",
                     "Removes axes of size one from all shardings.",
                     [](Module& module) { return removeSizeOneAxes(module); }));
  registerPass(optionlessPass(
      "sdy-explicit-gather-scatter-batching",
      "Makes the implicit batch dimension of row-wise gathers and scatters "
      "(iota indices) explicit.",
      explicitGatherScatterBatching));
  registerPass(PassInfo{
      "sdy-apply-sharding-constraints",
      "Applies sharding constraints that dictate the sharding of their input.",
      {{"debug-propagation-edge-sharding",
        "record each applied constraint as a propagation step "
        "(sdy.propagation_edges)",
        PassOptionKind::kBool},
       {"debug-sharding-origins",
        "accepted like propagation's option; the origins of an applied "
        "constraint's axes are recorded by propagation",
        PassOptionKind::kBool}},
      [](Module& module, const PassOptions& pass) -> absl::Status {
        ApplyShardingConstraintsOptions options;
        SK_ASSIGN_OR_RETURN(
            options.debug_propagation_edges,
            pass.getBool("debug-propagation-edge-sharding", false));
        SK_RETURN_IF_ERROR(
            pass.getBool("debug-sharding-origins", false).status());
        return applyShardingConstraints(module, options);
      }});
  registerPass(splitterPass(
      "sdy-constant-splitter",
      "Splits constant sub-computations so that each has a single use.",
      ConstantSplitMode::kConstants));
  registerPass(splitterPass(
      "sdy-constant-or-scalar-splitter",
      "Splits constant sub-computations and scalar expansions so that each "
      "has a single user.",
      ConstantSplitMode::kConstantsOrScalars));
  registerPass(optionlessPass(
      "sdy-manual-axes-cleanup",
      "Adds unused manual axes to the replicated axes of manual computation "
      "shardings and sorts manual axes in mesh order.",
      cleanupManualAxes));
  registerPass(
      optionlessPass("sdy-sharding-group-import",
                     "Unifies, renumbers and validates sharding groups.",
                     importShardingGroups));
  registerPass(boolOptionPass(
      "sdy-import-pipeline",
      "Runs the import passes needed before sharding propagation.",
      {"dedup-functions-fully",
       "keep functions and calls instead of inlining each call as a named "
       "computation (default false)"},
      &ImportPipelineOptions::dedup_functions_fully, runImportPipeline));
}

}  // namespace shardkit
