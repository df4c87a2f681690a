#include "tools/shardkit-opt/verify_diagnostics.h"

#include <regex>
#include <sstream>
#include <vector>

#include "shardkit/core/strings.h"

namespace shardkit {
namespace {

struct Diag {
  int64_t line;
  std::string message;
  bool matched = false;
};

std::vector<Diag> expectedErrors(const std::string& input) {
  static const std::regex kExpected(
      R"(expected-error\s*(@([+-]\d+|above|below))?\s*\{\{(.*?)\}\})");
  std::vector<Diag> result;
  std::istringstream lines(input);
  std::string line;
  int64_t number = 0;
  while (std::getline(lines, line)) {
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
      result.push_back({target, (*it)[3]});
    }
  }
  return result;
}

}  // namespace

std::string checkExpectedDiagnostics(const std::string& input,
                                     const std::string& file,
                                     const std::string& diagnostics) {
  std::vector<Diag> expected = expectedErrors(input);
  std::vector<Diag> produced;
  static const std::regex kProduced(R"(^(.*):(\d+):(\d+): error: (.*)$)");
  std::istringstream lines(diagnostics);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, kProduced)) {
      int64_t n = 0;
      parseInt64(m[2].str(), n);
      produced.push_back({n, m[4]});
    }
  }
  std::string report;
  for (Diag& want : expected) {
    for (Diag& got : produced) {
      if (!got.matched && got.line == want.line &&
          got.message.find(want.message) != std::string::npos) {
        got.matched = want.matched = true;
        break;
      }
    }
    if (!want.matched) {
      report += strCat(file, ":", want.line, ": error: expected error \"",
                       want.message, "\" was not produced\n");
    }
  }
  for (const Diag& got : produced) {
    if (!got.matched) {
      report += strCat(file, ":", got.line,
                       ": error: unexpected error: ", got.message, "\n");
    }
  }
  return report;
}

}  // namespace shardkit
