#include "shardkit/support/strings.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

namespace shardkit {
namespace {

TEST_CASE("strCat and strAppend join strings, chars and integers") {
  const std::string s = "str";
  CHECK(strCat("a", s, 'c', std::string_view("sv"), 42, int64_t{-7}) ==
        "astrcsv42-7");
  CHECK(strCat(std::numeric_limits<int64_t>::min()) == "-9223372036854775808");
  CHECK(strCat(uint64_t{18446744073709551615u}) == "18446744073709551615");
  std::string out = "x";
  strAppend(out, 1, "y", size_t{2});
  CHECK(out == "x1y2");
  CHECK(strCat() == "");
}

TEST_CASE("parseInt64 accepts whole decimal (or hex) integers only") {
  int64_t v = 0;
  CHECK(parseInt64("0", v));
  CHECK(v == 0);
  CHECK(parseInt64("-12", v));
  CHECK(v == -12);
  CHECK(parseInt64("9223372036854775807", v));
  CHECK(v == std::numeric_limits<int64_t>::max());
  CHECK(parseInt64("-9223372036854775808", v));
  CHECK(v == std::numeric_limits<int64_t>::min());
  CHECK(parseInt64("ff", v, 16));
  CHECK(v == 255);
  CHECK_FALSE(parseInt64("9223372036854775808", v));
  CHECK_FALSE(parseInt64("", v));
  CHECK_FALSE(parseInt64("12a", v));
  CHECK_FALSE(parseInt64(" 1", v));
  CHECK_FALSE(parseInt64("+1", v));
  CHECK(toAbsl("abc").size() == 3);
  CHECK(fromAbsl(toAbsl("abc")) == "abc");
}

TEST_CASE("appendQuoted escapes like MLIR's printer") {
  auto quoted = [](std::string_view text) {
    std::string out;
    appendQuoted(out, text);
    return out;
  };
  CHECK(quoted("x") == R"("x")");
  CHECK(quoted("") == R"("")");
  CHECK(quoted("a\"b\\c") == R"("a\22b\\c")");
  CHECK(quoted("tab\there\n") == R"("tab\09here\0A")");
  CHECK(quoted(std::string_view("\0\x7f", 2)) == R"("\00\7F")");
  CHECK(quoted("\xE2\x82\xAC") == R"("\E2\82\AC")");
  CHECK(quoted("~ !") == R"("~ !")");
}

TEST_CASE("isBareIdentifier and appendSymbolRef") {
  CHECK(isBareIdentifier("mesh"));
  CHECK(isBareIdentifier("_m"));
  CHECK(isBareIdentifier("m.x$1_2"));
  CHECK_FALSE(isBareIdentifier(""));
  CHECK_FALSE(isBareIdentifier("1m"));
  CHECK_FALSE(isBareIdentifier("a-b"));
  CHECK_FALSE(isBareIdentifier("a b"));
  CHECK_FALSE(isBareIdentifier("$a"));
  std::string out;
  appendSymbolRef(out, "mesh");
  CHECK(out == "@mesh");
  out.clear();
  appendSymbolRef(out, "my \"mesh\"");
  CHECK(out == R"(@"my \22mesh\22")");
}

}  // namespace
}  // namespace shardkit
