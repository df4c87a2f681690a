// The propagation passes: -sdy-basic-propagate, -sdy-aggressive-propagate,
// -sdy-op-priority-propagate, -sdy-user-priority-propagate and
// -sdy-propagation-pipeline (import, user-priority propagation, export), and
// -sdy-remove-propagation-debug-info, which drops the records their
// debug-sharding-origins / debug-propagation-edge-sharding options leave
// (shardkit/propagation/debug_info.h).
#ifndef SHARDKIT_PASSES_PROPAGATION_PASSES_H_
#define SHARDKIT_PASSES_PROPAGATION_PASSES_H_

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

void registerPropagationPasses();
void registerRemovePropagationDebugInfoPass();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_PROPAGATION_PASSES_H_
