// libFuzzer target for -verify-diagnostics annotations
// (tools/shardkit-opt/verify_diagnostics.h). The input is a file with
// `expected-error@+N {{...}}` annotations. Reading them must be linear and
// never crash; the diagnostics the annotations describe must satisfy them
// (an empty report), and one diagnostic more must not (a report of located
// `FILE:LINE:COL: error:` lines).
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tests/fuzz/fuzz_util.h"
#include "tools/shardkit-opt/verify_diagnostics.h"

namespace shardkit {
namespace {

constexpr std::string_view kFile = "f.mlir";

// The diagnostic an annotation asks for.
Diagnostic producedFor(const ExpectedDiagnostic& want) {
  Diagnostic d;
  d.severity = want.severity;
  d.message = strCat("<", want.message, ">");
  if (want.unknown_location) {
    d.location.op = "%0";
  } else {
    d.location = DiagnosticLocation{std::string(kFile), *want.target, 1, {}};
  }
  return d;
}

// Whether matching is unambiguous: no two annotations on one target line of
// one severity where one message contains the other (greedy matching, as in
// mlir-opt, may then pair them the wrong way round).
bool unambiguous(const std::vector<ExpectedDiagnostic>& expected) {
  for (size_t i = 0; i < expected.size(); ++i) {
    for (size_t j = i + 1; j < expected.size() && j < i + 64; ++j) {
      const ExpectedDiagnostic& a = expected[i];
      const ExpectedDiagnostic& b = expected[j];
      if (a.severity == b.severity && a.target == b.target &&
          a.unknown_location == b.unknown_location &&
          (a.message.find(b.message) != std::string::npos ||
           b.message.find(a.message) != std::string::npos)) {
        return false;
      }
    }
  }
  return expected.size() < 64;
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shardkit;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<ExpectedDiagnostic> expected = parseExpectedDiagnostics(input);
  std::vector<Diagnostic> produced;
  for (const ExpectedDiagnostic& want : expected) {
    if (want.line < 1 || want.col < 1)
      fuzz::fail("bad annotation position", input);
    if (want.target || want.unknown_location) {
      produced.push_back(producedFor(want));
    }
  }
  std::string report =
      checkExpectedDiagnostics(input, std::string(kFile), produced);
  bool all_matchable = produced.size() == expected.size();
  if (all_matchable && unambiguous(expected) && !report.empty()) {
    fuzz::fail("the annotations' own diagnostics do not satisfy them", input,
               report);
  }
  // One error nobody expects.
  produced.push_back(
      {{std::string(kFile), 1, 1, {}}, Severity::kError, "\x01unexpected", {}});
  report = checkExpectedDiagnostics(input, std::string(kFile), produced);
  if (report.empty() || report.back() != '\n') {
    fuzz::fail("an unexpected error was not reported", input, report);
  }
  report.pop_back();
  if (!fuzz::isLocated(report, kFile)) {
    fuzz::fail("a mismatch without a location", input, report);
  }
  return 0;
}
