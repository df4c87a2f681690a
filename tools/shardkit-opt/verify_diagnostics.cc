#include "tools/shardkit-opt/verify_diagnostics.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

constexpr std::string_view kPrefix = "expected-";

bool isDigit(char c) { return c >= '0' && c <= '9'; }

size_t skipSpaces(std::string_view line, size_t i) {
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

// Reads `error`, `warning`, `remark` or `note` at `i` of `line`.
std::optional<Severity> readSeverity(std::string_view line, size_t& i) {
  static constexpr std::pair<std::string_view, Severity> kNames[] = {
      {"error", Severity::kError},
      {"warning", Severity::kWarning},
      {"remark", Severity::kRemark},
      {"note", Severity::kNote}};
  for (const auto& [name, severity] : kNames) {
    if (line.substr(i).starts_with(name)) {
      i += name.size();
      return severity;
    }
  }
  return std::nullopt;
}

// Reads the optional `@+N`, `@-N`, `@above`, `@below` or `@unknown` at `i`
// into `want` (whose `line` is set); false if `@` starts none of them.
bool readTarget(std::string_view line, size_t& i, ExpectedDiagnostic& want) {
  want.target = want.line;
  if (i >= line.size() || line[i] != '@') return true;
  ++i;
  std::string_view rest = line.substr(i);
  for (auto [word, delta] :
       {std::pair<std::string_view, int>{"above", -1}, {"below", +1}}) {
    if (rest.starts_with(word)) {
      i += word.size();
      // `@above` on the first line names no line: like an offset before
      // the file, an annotation nothing can match.
      if (want.line + delta < 1) {
        want.target.reset();
      } else {
        want.target = want.line + delta;
      }
      return true;
    }
  }
  if (rest.starts_with("unknown")) {
    i += std::string_view("unknown").size();
    want.target.reset();
    want.unknown_location = true;
    return true;
  }
  if (rest.empty() || (rest[0] != '+' && rest[0] != '-')) return false;
  size_t end = 1;
  while (end < rest.size() && isDigit(rest[end])) ++end;
  if (end == 1) return false;
  int64_t delta = 0;
  int64_t target = 0;
  i += end;
  // An offset beyond the file is kept as an annotation nothing can match.
  if (!parseInt64(rest.substr(1, end - 1), delta) ||
      __builtin_add_overflow(want.line, rest[0] == '+' ? delta : -delta,
                             &target) ||
      target < 1) {
    want.target.reset();
    return true;
  }
  want.target = target;
  return true;
}

// Reads the annotation that starts after `expected-` at `i` of `line`; its
// message is the text up to the first `}}`.
std::optional<ExpectedDiagnostic> readAnnotation(std::string_view line,
                                                 size_t& i, int64_t number) {
  ExpectedDiagnostic want;
  want.line = number;
  want.col = static_cast<int64_t>(i - kPrefix.size()) + 1;
  std::optional<Severity> severity = readSeverity(line, i);
  if (!severity) return std::nullopt;
  want.severity = *severity;
  i = skipSpaces(line, i);
  if (!readTarget(line, i, want)) return std::nullopt;
  i = skipSpaces(line, i);
  if (!line.substr(i).starts_with("{{")) return std::nullopt;
  size_t end = line.find("}}", i + 2);
  if (end == std::string_view::npos) return std::nullopt;
  want.message = std::string(line.substr(i + 2, end - i - 2));
  i = end + 2;
  return want;
}

bool matches(const Diagnostic& got, const ExpectedDiagnostic& want) {
  if (got.severity != want.severity) return false;
  if (want.unknown_location) {
    if (got.location.hasPosition()) return false;
  } else if (!want.target || !got.location.hasPosition() ||
             got.location.line != *want.target) {
    return false;
  }
  return got.message.find(want.message) != std::string::npos;
}

// Where a mismatch about `got` is reported: its own position, or 1:1 of the
// file for a diagnostic without one (whose op is then named in the message).
DiagnosticLocation reportedAt(const Diagnostic& got, const std::string& file) {
  if (got.location.hasPosition()) return got.location;
  return DiagnosticLocation{file, 1, 1, {}};
}

}  // namespace

std::vector<ExpectedDiagnostic> parseExpectedDiagnostics(std::string_view input,
                                                         int64_t first_line) {
  std::vector<ExpectedDiagnostic> result;
  int64_t number = first_line - 1;
  size_t start = 0;
  while (start < input.size()) {
    size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    std::string_view line = input.substr(start, end - start);
    start = end + 1;
    ++number;
    size_t i = 0;
    while ((i = line.find(kPrefix, i)) != std::string_view::npos) {
      i += kPrefix.size();
      if (std::optional<ExpectedDiagnostic> want =
              readAnnotation(line, i, number)) {
        result.push_back(*std::move(want));
      }
    }
  }
  return result;
}

std::string checkExpectedDiagnostics(std::string_view input,
                                     const std::string& file,
                                     const std::vector<Diagnostic>& produced,
                                     int64_t first_line) {
  // Every diagnostic and note, indexed by its line (0: no position), so
  // that an annotation only looks at the diagnostics of its target line.
  std::vector<const Diagnostic*> all;
  for (const Diagnostic& d : produced) {
    all.push_back(&d);
    for (const Diagnostic& note : d.notes) all.push_back(&note);
  }
  std::map<int64_t, std::vector<size_t>> by_line;
  for (size_t i = 0; i < all.size(); ++i) {
    const DiagnosticLocation& at = all[i]->location;
    by_line[at.hasPosition() ? at.line : 0].push_back(i);
  }
  std::vector<bool> used(all.size(), false);
  std::vector<Diagnostic> mismatches;
  for (const ExpectedDiagnostic& want :
       parseExpectedDiagnostics(input, first_line)) {
    bool matched = false;
    int64_t line = want.unknown_location ? 0 : want.target.value_or(-1);
    if (auto it = by_line.find(line); it != by_line.end()) {
      for (size_t i : it->second) {
        if (!used[i] && matches(*all[i], want)) {
          used[i] = matched = true;
          break;
        }
      }
    }
    if (!matched) {
      mismatches.push_back({{file, want.line, want.col, {}},
                            Severity::kError,
                            strCat("expected ", toString(want.severity), " \"",
                                   want.message, "\" was not produced"),
                            {}});
    }
  }
  for (size_t i = 0; i < all.size(); ++i) {
    if (used[i]) continue;
    const Diagnostic& got = *all[i];
    std::string where = got.location.hasPosition() || got.location.op.empty()
                            ? std::string()
                            : strCat(" at ", got.location.op);
    mismatches.push_back({reportedAt(got, file),
                          Severity::kError,
                          strCat("unexpected ", toString(got.severity), where,
                                 ": ", got.message),
                          {}});
  }
  std::stable_sort(mismatches.begin(), mismatches.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::pair(a.location.line, a.location.col) <
                            std::pair(b.location.line, b.location.col);
                   });
  std::string report;
  for (const Diagnostic& d : mismatches) {
    strAppend(report, formatDiagnostic(d), "\n");
  }
  return report;
}

}  // namespace shardkit
