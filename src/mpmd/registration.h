// Internal to the mpmd layer: what registerMpmdDialect registers besides the
// syntaxes.
#ifndef SHARDKIT_SRC_MPMD_REGISTRATION_H_
#define SHARDKIT_SRC_MPMD_REGISTRATION_H_

namespace shardkit::mpmd::mpmd_internal {

// The canonicalization patterns of the mpmd ops (canonicalize_patterns.cc).
void registerCanonicalizationPatterns();
// The mpmd passes and pipelines (pass_list.cc).
void registerPasses();

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_REGISTRATION_H_
