// The passes shardkit registers; each pass family adds its own
// `register...Passes()` here (declared in pass_list.h).
#include "src/passes/pass_list.h"

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
