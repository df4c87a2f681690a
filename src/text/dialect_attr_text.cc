#include "shardkit/text/dialect_attr_text.h"

#include "shardkit/support/strings.h"
#include "shardkit/text/char_classes.h"
#include "shardkit/text/scanner.h"

namespace shardkit {
namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!isIdentChar(c)) return false;
  }
  return true;
}

}  // namespace

std::optional<DialectAttrText> splitDialectAttr(std::string_view text) {
  text = trimSpaces(text);
  DialectAttrText parts;
  size_t open = 0;
  if (text.starts_with("#")) {
    open = 1;
    while (open < text.size() && isIdentChar(text[open])) ++open;
    parts.name = text.substr(1, open - 1);
    if (parts.name.empty()) return std::nullopt;
  }
  if (open >= text.size() || text[open] != '<') return std::nullopt;
  ScanResult scan = scanBrackets(text, open);
  if (!scan.ok() || scan.end != text.size()) return std::nullopt;
  parts.body = text.substr(open + 1, scan.end - open - 2);
  return parts;
}

std::optional<std::vector<DialectAttrField>> splitDialectAttrFields(
    std::string_view body) {
  absl::StatusOr<std::vector<std::string_view>> parts = splitTopLevel(body);
  if (!parts.ok()) return std::nullopt;
  std::vector<DialectAttrField> fields;
  fields.reserve(parts->size());
  for (std::string_view part : *parts) {
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    DialectAttrField field{trimSpaces(part.substr(0, eq)),
                           trimSpaces(part.substr(eq + 1))};
    if (!isIdentifier(field.key) || field.value.empty()) return std::nullopt;
    fields.push_back(field);
  }
  return fields;
}

std::optional<std::vector<int64_t>> parseIntListText(std::string_view text) {
  text = trimSpaces(text);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return std::nullopt;
  }
  absl::StatusOr<std::vector<std::string_view>> parts =
      splitTopLevel(text.substr(1, text.size() - 2));
  if (!parts.ok()) return std::nullopt;
  std::vector<int64_t> values;
  values.reserve(parts->size());
  for (std::string_view part : *parts) {
    int64_t v = 0;
    if (!parseInt64(part, v)) return std::nullopt;
    values.push_back(v);
  }
  return values;
}

}  // namespace shardkit
