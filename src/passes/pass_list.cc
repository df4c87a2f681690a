// The passes shardkit registers; each pass family adds its own
// `register...Passes()` here.
#include "src/passes/pass_list.h"

#include "shardkit/passes/call_passes.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/gspmd_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/propagation_passes.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "shardkit/passes/rule_passes.h"
#include "shardkit/passes/symbol_dce.h"

namespace shardkit {

void passes_internal::registerBuiltinPasses() {
  registerPropagationPasses();
  registerRemovePropagationDebugInfoPass();
  registerImportPasses();
  registerCallPasses();
  registerExportPasses();
  registerUnflattenCallGraphPass();
  registerExportNamedComputationsPass();
  registerVerifyUnreducedAxesPass();
  registerInlineMeshesPass();
  registerInsertExplicitReshardsPass();
  registerReshardToCollectivesPass();
  registerRulePasses();
  registerCanonicalizePass();
  registerGspmdPasses();
  registerSymbolDcePass();
}

}  // namespace shardkit
