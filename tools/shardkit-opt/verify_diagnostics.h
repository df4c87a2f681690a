// `-verify-diagnostics`: checks the diagnostics a run produced against the
// `// expected-error@+N {{message}}` annotations of its input, as mlir-opt
// does: `expected-error`, `-warning`, `-remark` and `-note`, each optionally
// followed by `@+N`, `@-N`, `@above`, `@below` or `@unknown` (a diagnostic
// without a source position), then the text the message must contain in
// `{{...}}`. Every annotation must be matched by a diagnostic of its
// severity on its target line, and every diagnostic (notes included) by an
// annotation.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/diagnostic.h"

namespace shardkit {

// One annotation: where it is written, the line it expects a diagnostic on
// (none for `@unknown` and for an offset that leaves the file), its severity
// and the text the message must contain.
struct ExpectedDiagnostic {
  int64_t line = 0;
  int64_t col = 0;
  std::optional<int64_t> target;
  bool unknown_location = false;
  Severity severity = Severity::kError;
  std::string message;
};

// The annotations of `input`, in order. Linear in the input's size whatever
// its lines hold (no regular-expression engine).
// `first_line` is the line number of the input's first line (a chunk of a
// -split-input-file input starts later in its file).
std::vector<ExpectedDiagnostic> parseExpectedDiagnostics(
    std::string_view input, int64_t first_line = 1);

// Returns an empty string when every annotation of `input` (read from
// `file`) was matched and nothing else was produced; otherwise one line per
// difference, `FILE:LINE:COL: error: ...` at the annotation or the
// diagnostic (at 1:1 for a diagnostic without a source position).
std::string checkExpectedDiagnostics(std::string_view input,
                                     const std::string& file,
                                     const std::vector<Diagnostic>& produced,
                                     int64_t first_line = 1);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_VERIFY_DIAGNOSTICS_H_
