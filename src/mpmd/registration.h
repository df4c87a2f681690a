// Internal to the mpmd layer: what registerMpmdDialect registers besides the
// syntaxes.
#ifndef SHARDKIT_SRC_MPMD_REGISTRATION_H_
#define SHARDKIT_SRC_MPMD_REGISTRATION_H_

#include "shardkit/passes/canonicalize.h"

namespace shardkit::mpmd::mpmd_internal {

// The canonicalization patterns of the mpmd ops (canonicalize_patterns.cc).
void registerCanonicalizationPatterns();
// A fragment whose results are unused and whose ops have no side effects is
// erased (the dead-op rule for fragments, canonicalize_patterns.cc).
bool eraseDeadFragment(Op op, PatternRewriter& rewriter);

// The mpmd passes and pipelines (pass_list.cc).
void registerPasses();
// The export passes and pipeline (export_pass_list.cc).
void registerExportPasses();
// The optimize passes (optimize_pass_list.cc).
void registerOptimizePasses();
// The sharding propagation passes and pipeline (sharding_pass_list.cc).
void registerShardingPropagationPasses();
// The sharding rule of mpmd.transfer (transfer_rule.cc).
void registerTransferRule();

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_REGISTRATION_H_
