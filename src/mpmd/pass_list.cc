// The mpmd passes, registered with their mpmd_opt names and options.
#include "shardkit/passes/pass.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerPasses() {}

}  // namespace shardkit::mpmd::mpmd_internal
