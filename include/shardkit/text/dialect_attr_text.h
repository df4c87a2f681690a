// The text of a dialect attribute that shardkit keeps as text:
// `#dialect.name<key = value, ...>`, split with the one scanner (scanner.h),
// so that strings, nested brackets and `->` inside values never cut a field.
#ifndef SHARDKIT_TEXT_DIALECT_ATTR_TEXT_H_
#define SHARDKIT_TEXT_DIALECT_ATTR_TEXT_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// `#dialect.name<body>`, or the stripped `<body>` (with an empty name).
struct DialectAttrText {
  std::string_view name;  // `dialect.name`, without the '#'
  std::string_view body;  // between the outer brackets
};
// The parts of `text` (views into it), or nullopt unless `text` is exactly
// one such attribute, its brackets balanced (whitespace around is allowed).
std::optional<DialectAttrText> splitDialectAttr(std::string_view text);

// `key = value` of a dialect attribute's body.
struct DialectAttrField {
  std::string_view key;
  std::string_view value;  // a view into the body, without outer whitespace
};
// The fields of `body` (`k1 = v1, k2 = v2`, any spacing; empty when blank),
// or nullopt when a part is not `identifier = value` or the body is not
// balanced.
std::optional<std::vector<DialectAttrField>> splitDialectAttrFields(
    std::string_view body);

// `[1, -2]` → {1, -2} (any spacing), or nullopt.
std::optional<std::vector<int64_t>> parseIntListText(std::string_view text);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_DIALECT_ATTR_TEXT_H_
