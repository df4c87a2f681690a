// The canonicalization patterns of the mpmd ops.
#include "shardkit/passes/canonicalize.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerCanonicalizationPatterns() {}

}  // namespace shardkit::mpmd::mpmd_internal
