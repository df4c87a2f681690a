// The character classes every reader of the text layer shares: each class
// is the set MLIR's lexer uses, for all 256 byte values.
#include "shardkit/text/char_classes.h"

#include <catch2/catch.hpp>
#include <string_view>

namespace shardkit {
namespace {

bool in(std::string_view set, char c) {
  return set.find(c) != std::string_view::npos;
}

TEST_CASE("character classes are MLIR's, for every byte") {
  constexpr std::string_view kLetters =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  constexpr std::string_view kDigits = "0123456789";
  for (int i = 0; i < 256; ++i) {
    char c = static_cast<char>(i);
    INFO("byte " << i);
    bool letter = in(kLetters, c), digit = in(kDigits, c);
    CHECK(isIdentStart(c) == (letter || c == '_'));
    CHECK(isIdentChar(c) == (letter || digit || in("_$.", c)));
    CHECK(isSuffixIdChar(c) == (letter || digit || in("_$.-", c)));
    CHECK(isBlankChar(c) == in(" \t\n\r", c));
    CHECK(isStringEndChar(c) == (c == '"' || c == '\\' || c == '\n' || i == 0));
    CHECK(isDigitChar(c) == digit);
  }
  // Usable where a constant is needed.
  static_assert(isSuffixIdChar('-') && !isIdentChar('-'));
  static_assert(!isIdentStart('7') && isIdentChar('7'));
}

}  // namespace
}  // namespace shardkit
