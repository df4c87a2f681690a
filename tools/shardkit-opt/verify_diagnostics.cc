#include "tools/shardkit-opt/verify_diagnostics.h"

#include <regex>
#include <string>

#include "shardkit/core/strings.h"

namespace shardkit {
namespace {

// An `expected-error` annotation: where it is, the line it expects an error
// on, and the text the error's message must contain.
struct Expected {
  int64_t line = 0;  // of the annotation
  int64_t col = 0;
  int64_t target = 0;
  std::string message;
  bool matched = false;
};

std::vector<Expected> expectedErrors(std::string_view input) {
  static const std::regex kExpected(
      R"(expected-error\s*(@([+-]\d+|above|below))?\s*\{\{(.*?)\}\})");
  std::vector<Expected> result;
  int64_t number = 0;
  size_t start = 0;
  while (start < input.size()) {
    size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    std::string line(input.substr(start, end - start));
    start = end + 1;
    ++number;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kExpected);
         it != std::sregex_iterator(); ++it) {
      std::string offset = (*it)[2];
      int64_t target = number;
      if (offset == "above") {
        target = number - 1;
      } else if (offset == "below") {
        target = number + 1;
      } else if (!offset.empty()) {
        int64_t delta = 0;
        parseInt64(offset[0] == '+' ? offset.substr(1) : offset, delta);
        target = number + delta;
      }
      result.push_back(
          {number, static_cast<int64_t>(it->position()) + 1, target, (*it)[3]});
    }
  }
  return result;
}

bool matches(const Diagnostic& got, const Expected& want) {
  return got.severity == Severity::kError && got.location.hasPosition() &&
         got.location.line == want.target &&
         got.message.find(want.message) != std::string::npos;
}

}  // namespace

std::string checkExpectedDiagnostics(std::string_view input,
                                     const std::string& file,
                                     const std::vector<Diagnostic>& produced) {
  std::vector<Expected> expected = expectedErrors(input);
  std::vector<bool> used(produced.size(), false);
  std::vector<Diagnostic> mismatches;
  for (Expected& want : expected) {
    for (size_t i = 0; i < produced.size() && !want.matched; ++i) {
      if (!used[i] && matches(produced[i], want)) {
        used[i] = want.matched = true;
      }
    }
    if (!want.matched) {
      mismatches.push_back(
          {{file, want.line, want.col, {}},
           Severity::kError,
           strCat("expected error \"", want.message, "\" was not produced"),
           {}});
    }
  }
  for (size_t i = 0; i < produced.size(); ++i) {
    if (used[i]) continue;
    const Diagnostic& got = produced[i];
    mismatches.push_back(
        {got.location.empty() ? DiagnosticLocation{file, 0, 0, {}}
                              : got.location,
         Severity::kError,
         strCat("unexpected ", toString(got.severity), ": ", got.message),
         {}});
  }
  std::string report;
  for (const Diagnostic& d : mismatches) {
    strAppend(report, formatDiagnostic(d), "\n");
  }
  return report;
}

}  // namespace shardkit
