#include "shardkit/text/scanner.h"

#include "shardkit/support/strings.h"

namespace shardkit {

std::string scanErrorMessage(std::string_view text, size_t open_at,
                             const ScanResult& result) {
  auto quoted = [](char c) { return strCat("'", c, "'"); };
  size_t at = result.error_offset;
  switch (result.error) {
    case ScanError::kNone:
      return "";
    case ScanError::kUnterminatedString:
      return "unterminated string literal";
    case ScanError::kUnclosed:
      if (at >= text.size() || closerOf(text[at]) == 0) {
        return "expected an opening bracket";
      }
      return strCat("unbalanced ", quoted(text[at]), ": no matching ",
                    quoted(closerOf(text[at])));
    case ScanError::kMismatched:
      if (open_at == std::string_view::npos || open_at >= text.size()) {
        return strCat("unbalanced ", quoted(text[at]));
      }
      return strCat("unbalanced ", quoted(text[at]), " in '", text[open_at],
                    "...", closerOf(text[open_at]), "'");
  }
  return "";
}

absl::Status scanErrorStatus(std::string_view text, size_t open_at,
                             const ScanResult& result) {
  return absl::InvalidArgumentError(
      toAbsl(strCat("offset ", result.error_offset, ": ",
                    scanErrorMessage(text, open_at, result))));
}

std::string_view trimSpaces(std::string_view text) {
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  };
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

absl::StatusOr<std::vector<std::string_view>> splitTopLevel(
    std::string_view text) {
  std::vector<std::string_view> parts;
  if (trimSpaces(text).empty()) return parts;
  size_t part_start = 0;
  ScanResult result = scanner_internal::scan(
      text, 0, Nesting::kAllKinds, /*balanced=*/false, [](BracketPair) {},
      [&](size_t comma) {
        parts.push_back(
            trimSpaces(text.substr(part_start, comma - part_start)));
        part_start = comma + 1;
      },
      /*resume=*/0);
  if (!result.ok()) {
    return scanErrorStatus(text, std::string_view::npos, result);
  }
  parts.push_back(trimSpaces(text.substr(part_start)));
  return parts;
}

}  // namespace shardkit
