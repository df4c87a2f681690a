// The passes shardkit registers; each pass family adds its own
// `register...Passes()` here.
#include "shardkit/passes/pass.h"

namespace shardkit {

void registerBuiltinPasses() {}

}  // namespace shardkit
