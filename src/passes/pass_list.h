// Internal to the passes layer: the registration of shardkit's own passes.
// The pass registry (pass.cc) runs registerBuiltinPasses once, before its
// first lookup; it calls each pass family's `register...()`, defined beside
// the family's passes.
#ifndef SHARDKIT_SRC_PASSES_PASS_LIST_H_
#define SHARDKIT_SRC_PASSES_PASS_LIST_H_

namespace shardkit {

// The propagation passes: -sdy-basic-propagate, -sdy-aggressive-propagate,
// -sdy-op-priority-propagate, -sdy-user-priority-propagate and
// -sdy-propagation-pipeline (import, user-priority propagation, export), and
// -sdy-remove-propagation-debug-info, which drops the records their
// debug-sharding-origins / debug-propagation-edge-sharding options leave
// (shardkit/propagation/debug_info.h). propagation_passes.cc.
void registerPropagationPasses();
void registerRemovePropagationDebugInfoPass();

// The passes of import_passes.h (import/import_pipeline.cc) and of
// call_passes.h (call_pass_list.cc).
void registerImportPasses();
void registerCallPasses();

// The passes of export_passes.h, each in its file of export/.
void registerExportPasses();
void registerInputOutputShardingPasses();
void registerResolveSingleDeviceShardingPass();
void registerRemoveAllGatherReduceScatterForCmv1Pass();
void registerUnflattenCallGraphPass();
void registerExportNamedComputationsPass();
void registerVerifyUnreducedAxesPass();
void registerInlineMeshesPass();
void registerInsertExplicitReshardsPass();

// -sdy-reshard-to-collectives (reshard_to_collectives.h), the rule passes
// (rule_passes.h), -sdy-canonicalize (canonicalize.h), the GSPMD passes
// (gspmd_passes.h) and -symbol-dce (symbol_dce.h).
void registerReshardToCollectivesPass();
void registerRulePasses();
void registerCanonicalizePass();
void registerGspmdPasses();
void registerSymbolDcePass();

}  // namespace shardkit

namespace shardkit::passes_internal {

void registerBuiltinPasses();

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_PASS_LIST_H_
