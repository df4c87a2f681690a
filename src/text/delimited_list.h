// Internal: the bracketed, comma-separated lists of the attribute parsers.
#ifndef SHARDKIT_SRC_TEXT_DELIMITED_LIST_H_
#define SHARDKIT_SRC_TEXT_DELIMITED_LIST_H_

#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/text/parser_base.h"

namespace shardkit {

// Parses `open item (, item)* close` (or just `open close`), calling
// `parse_item` for every item.
template <typename Fn>
absl::Status parseDelimitedList(ParserBase& p, TokenKind open,
                                std::string_view open_text, TokenKind close,
                                std::string_view close_text, Fn&& parse_item) {
  SK_RETURN_IF_ERROR(p.expect(open, open_text));
  if (p.consumeIf(close)) return absl::OkStatus();
  do {
    SK_RETURN_IF_ERROR(parse_item());
  } while (p.consumeIf(TokenKind::kComma));
  return p.expect(close, close_text);
}

// `[item, ...]` (or `[]`).
template <typename Fn>
absl::Status parseSquareList(ParserBase& p, Fn&& parse_item) {
  return parseDelimitedList(p, TokenKind::kLSquare, "'['", TokenKind::kRSquare,
                            "']'", parse_item);
}

// `[item, ...]` (or `[]`), each item appended to `items`: `parse_item()`
// returns it (an absl::StatusOr of what constructs a `T`).
template <typename T, typename Fn>
absl::Status parseSquareListInto(ParserBase& p, std::vector<T>& items,
                                 Fn&& parse_item) {
  return parseSquareList(p, [&]() -> absl::Status {
    auto item = parse_item();
    SK_RETURN_IF_ERROR(item.status());
    items.emplace_back(*std::move(item));
    return absl::OkStatus();
  });
}

// `[{item}, ...]` (or `[]`): parseSquareListInto with each item in braces.
template <typename T, typename Fn>
absl::Status parseSquareListOfBraced(ParserBase& p, std::vector<T>& items,
                                     Fn&& parse_item) {
  return parseSquareListInto(p, items, [&]() -> decltype(parse_item()) {
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kLBrace, "'{'"));
    auto item = parse_item();
    SK_RETURN_IF_ERROR(item.status());
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kRBrace, "'}'"));
    return item;
  });
}

// `{item, ...}` (or `{}`).
template <typename Fn>
absl::Status parseBraceList(ParserBase& p, Fn&& parse_item) {
  return parseDelimitedList(p, TokenKind::kLBrace, "'{'", TokenKind::kRBrace,
                            "'}'", parse_item);
}

}  // namespace shardkit

#endif  // SHARDKIT_SRC_TEXT_DELIMITED_LIST_H_
