// UTF-8 boundaries and the one JSON string writer (support/utf8.h): every
// JSON output must be valid UTF-8 whatever bytes the input held, and a cut
// message must not end inside a character.
#include "shardkit/support/utf8.h"

#include <catch2/catch.hpp>
#include <string>

namespace shardkit {
namespace {

std::string json(std::string_view text) {
  std::string out;
  appendJsonString(out, text);
  return out;
}

TEST_CASE("JSON strings escape quotes, controls and invalid UTF-8") {
  CHECK(json("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json(std::string_view("\n\t\x01\x7f", 4)) ==
        "\"\\n\\t\\u0001\\u007f\"");
  CHECK(json(std::string_view("\0", 1)) == "\"\\u0000\"");
  // Well-formed sequences stay as they are.
  CHECK(json("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") ==
        "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
  // Each byte of an ill-formed one is U+FFFD: a stray continuation, a
  // truncated sequence, an overlong form, a surrogate, past U+10FFFF.
  CHECK(json("\x80") == "\"\\ufffd\"");
  CHECK(json("a\xe2\x82") == "\"a\\ufffd\\ufffd\"");
  CHECK(json("\xc0\xaf") == "\"\\ufffd\\ufffd\"");
  CHECK(json("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");
  CHECK(json("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  CHECK(json("\xff") == "\"\\ufffd\"");
}

TEST_CASE("a UTF-8 prefix never ends inside a character") {
  const std::string text =
      "ab\xe2\x82\xac"
      "cd";  // a, b, euro sign, c, d
  CHECK(utf8Prefix(text, 100) == text);
  CHECK(utf8Prefix(text, 2) == "ab");
  CHECK(utf8Prefix(text, 3) == "ab");
  CHECK(utf8Prefix(text, 4) == "ab");
  CHECK(utf8Prefix(text, 5) == "ab\xe2\x82\xac");
  CHECK(utf8Prefix(text, 0).empty());
  CHECK(utf8SequenceLength("") == 0);
  CHECK(utf8SequenceLength("\xf0\x9f\x98\x80") == 4);
}

}  // namespace
}  // namespace shardkit
