// The mpmd passes (docs/mpmd.md), registered with mpmd_opt's names by
// registerMpmdDialect (dialect.h). Each entry point runs one pass over a
// module; bad input or an impossible placement is an error with a location.
#ifndef SHARDKIT_MPMD_PASSES_H_
#define SHARDKIT_MPMD_PASSES_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd {

// -inline: inlines func.call (never mpmd.call or mpmd.fragment_call), then
// canonicalizes and erases private functions that lost their last call.
absl::Status inlineCalls(Module& module);

}  // namespace shardkit::mpmd

#endif  // SHARDKIT_MPMD_PASSES_H_
