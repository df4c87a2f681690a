// The passes shardkit registers; each pass family adds its own
// `register...Passes()` here.
#include "src/passes/pass_list.h"

#include "shardkit/passes/canonicalize.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/propagation_passes.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "shardkit/passes/rule_passes.h"

namespace shardkit {

void passes_internal::registerBuiltinPasses() {
  registerPropagationPasses();
  registerRemovePropagationDebugInfoPass();
  registerImportPasses();
  registerExportPasses();
  registerUnflattenCallGraphPass();
  registerExportNamedComputationsPass();
  registerVerifyUnreducedAxesPass();
  registerInlineMeshesPass();
  registerInsertExplicitReshardsPass();
  registerReshardToCollectivesPass();
  registerRulePasses();
  registerCanonicalizePass();
}

}  // namespace shardkit
