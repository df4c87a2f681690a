// `-verify-diagnostics`: checks the diagnostics a run produced against the
// `// expected-error@+N {{message}}` annotations of its input, as mlir-opt
// does. Only errors are checked: the tool emits no warnings or remarks, and
// `expected-note` / `expected-warning` annotations are not checked.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_

#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/diagnostic.h"

namespace shardkit {

// Returns an empty string when every expected error of `input` (read from
// `file`) was produced — an error on its line whose message contains the
// expected text — and nothing else was; otherwise one line per difference,
// `FILE:LINE:COL: error: ...` at the annotation or the diagnostic.
std::string checkExpectedDiagnostics(std::string_view input,
                                     const std::string& file,
                                     const std::vector<Diagnostic>& produced);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_
