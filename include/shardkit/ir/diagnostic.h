// Structured diagnostics: where (a position in a source file, or the op when
// it was built in C++), how severe, what, and attached notes. A Diagnostic
// travels inside an absl::Status (as a payload), so it survives being
// returned through any number of layers; the status message holds the same
// diagnostics formatted, one per line:
//
//   FILE:LINE:COL: error: MESSAGE         (an op or text read from a file)
//   %3: error: MESSAGE                    (an op built in C++: its result)
//   model.py:12:3 (%3): error: MESSAGE    (one its builder gave a location)
//
// This is the form shardkit-opt prints and `-verify-diagnostics` checks.
#ifndef SHARDKIT_IR_DIAGNOSTIC_H_
#define SHARDKIT_IR_DIAGNOSTIC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class Severity : uint8_t { kError, kWarning, kRemark, kNote };

// "error", "warning", "remark", "note".
std::string_view toString(Severity severity);

// Where a diagnostic points.
struct DiagnosticLocation {
  std::string file;
  int64_t line = 0;  // 1-based; 0 when there is no source position
  int64_t col = 0;   // 1-based
  // Without a source position, the op: its printed result name (`%3`), its
  // symbol (`@f`), or `op#ID`.
  std::string op;

  bool hasPosition() const { return line > 0; }
  bool empty() const { return file.empty() && line == 0 && op.empty(); }
  friend bool operator==(const DiagnosticLocation&,
                         const DiagnosticLocation&) = default;
};

// `FILE:LINE:COL` (`FILE:LINE:COL (OP)` when both are known); without a
// position `FILE:OP` or `OP`; "" when empty.
std::string toString(const DiagnosticLocation& location);

struct Diagnostic {
  DiagnosticLocation location;
  Severity severity = Severity::kError;
  std::string message;
  std::vector<Diagnostic> notes;  // each of severity kNote

  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

// `LOCATION: SEVERITY: MESSAGE` (just `SEVERITY: MESSAGE` without a
// location), then one such line per note. No trailing newline. The file name
// and message are printable (printableText).
std::string formatDiagnostic(const Diagnostic& diagnostic);

// `text` safe to print on a terminal or in a log: valid UTF-8 and printable
// ASCII are kept, every other byte (NUL, control characters, line breaks,
// bytes of malformed UTF-8) is written `\XX` in hex, as LLVM escapes strings.
std::string printableText(std::string_view text);

// A status of `code` carrying `diagnostics` (at least one); its message is
// their formatDiagnostic lines joined by '\n'.
absl::Status diagnosticStatus(
    const std::vector<Diagnostic>& diagnostics,
    absl::StatusCode code = absl::StatusCode::kInvalidArgument);
absl::Status diagnosticStatus(
    const Diagnostic& diagnostic,
    absl::StatusCode code = absl::StatusCode::kInvalidArgument);

// True if `status` carries diagnostics (was made by diagnosticStatus).
bool hasDiagnostics(const absl::Status& status);

// The diagnostics `status` carries. A failed status without any is one error
// without a location whose message is the status message; OK has none.
std::vector<Diagnostic> diagnosticsOf(const absl::Status& status);

// The position of byte `offset` of `source`, a text read from `file`. The
// one place where offsets become lines and columns.
DiagnosticLocation sourceLocation(std::string_view file,
                                  std::string_view source, size_t offset);

// Where `op` is: its position in its module's source, or (for an op built in
// C++) the op itself.
DiagnosticLocation locationOf(Op op);

// An error at `op` whose message names it like MLIR's emitOpError:
// `'op.name' op MESSAGE`.
absl::Status opError(Op op, std::string_view message);

// An error at `op` with `message` as it is.
absl::Status locatedError(Op op, std::string_view message);

// Diagnostics a pass reports without failing (MLIR's emitError without
// signalPassFailure): the module is still written. They are kept per thread
// until the driver (shardkit-opt) takes them.
void emitNonFatal(const absl::Status& status);
std::vector<Diagnostic> takeNonFatalDiagnostics();

// Warnings of shardkit's own that the reference does not emit (an op
// without a sharding rule that stops propagation): shardkit-opt prints them
// on stderr but, unlike emitNonFatal's, -verify-diagnostics does not match
// them, so that the reference's tests see the reference's diagnostics. Kept
// per thread like those, at most 1024 until taken.
void emitAdvisory(Diagnostic diagnostic);
std::vector<Diagnostic> takeAdvisories();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_DIAGNOSTIC_H_
