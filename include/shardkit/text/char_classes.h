// The character classes of the MLIR text shardkit reads, in one table for
// the lexer, the scanner and the readers' fast paths: what a bare identifier
// starts with and holds, what a suffix id (the name after `%` or `@`) holds,
// blanks, and what ends a string's plain run.
#ifndef SHARDKIT_TEXT_CHAR_CLASSES_H_
#define SHARDKIT_TEXT_CHAR_CLASSES_H_

#include <array>
#include <cstdint>

namespace shardkit {

namespace char_classes_detail {

enum : uint8_t {
  kIdentStart = 1,  // letters, `_`
  kIdent = 2,       // those, digits, `$`, `.`
  kSuffixId = 4,    // those and `-`
  kBlank = 8,       // space, tab, newline, carriage return
  kStringEnd = 16,  // `"`, `\`, newline, NUL
};

constexpr std::array<uint8_t, 256> makeTable() {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    bool start = letter || c == '_';
    bool ident = start || digit || c == '$' || c == '.';
    table[c] = static_cast<uint8_t>(
        (start ? kIdentStart : 0) | (ident ? kIdent : 0) |
        (ident || c == '-' ? kSuffixId : 0) |
        (c == ' ' || c == '\n' || c == '\t' || c == '\r' ? kBlank : 0) |
        (c == '"' || c == '\\' || c == '\n' || c == 0 ? kStringEnd : 0));
  }
  return table;
}
inline constexpr std::array<uint8_t, 256> kTable = makeTable();

constexpr bool has(char c, uint8_t bits) {
  return (kTable[static_cast<unsigned char>(c)] & bits) != 0;
}

}  // namespace char_classes_detail

// A letter or `_`: what a bare identifier starts with.
constexpr bool isIdentStart(char c) {
  return char_classes_detail::has(c, char_classes_detail::kIdentStart);
}
// What a bare identifier holds (`stablehlo.add`, `z_8$`).
constexpr bool isIdentChar(char c) {
  return char_classes_detail::has(c, char_classes_detail::kIdent);
}
// What a suffix id holds, after `%` or `@` (`%arg-0`, `@foo.bar`).
constexpr bool isSuffixIdChar(char c) {
  return char_classes_detail::has(c, char_classes_detail::kSuffixId);
}
// Space, tab, newline or carriage return.
constexpr bool isBlankChar(char c) {
  return char_classes_detail::has(c, char_classes_detail::kBlank);
}
// What ends a string's plain run: its closing quote, an escape, a newline
// or the NUL after a text.
constexpr bool isStringEndChar(char c) {
  return char_classes_detail::has(c, char_classes_detail::kStringEnd);
}
constexpr bool isDigitChar(char c) { return c >= '0' && c <= '9'; }

}  // namespace shardkit

#endif  // SHARDKIT_TEXT_CHAR_CLASSES_H_
