// The mpmd passes, registered with their mpmd_opt names and options.
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerPasses() {
  registerPass(optionlessPass(
      "inline",
      "Inlines func.call ops (never mpmd.call or mpmd.fragment_call), then "
      "canonicalizes and erases private functions left without calls",
      inlineCalls));
}

}  // namespace shardkit::mpmd::mpmd_internal
