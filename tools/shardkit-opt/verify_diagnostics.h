// `-verify-diagnostics`: checks the diagnostics a run produced against the
// `// expected-error@+N {{message}}` annotations of its input, as mlir-opt
// does.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_

#include <string>

namespace shardkit {

// `diagnostics` holds lines `FILE:LINE:COL: error: MESSAGE`. Returns an empty
// string when every expected error was produced (on its line, containing its
// message) and no other error was; otherwise a report of the differences.
std::string checkExpectedDiagnostics(const std::string& input,
                                     const std::string& file,
                                     const std::string& diagnostics);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_
