// The character scan behind AttrParser::parseTensorSharding / parseMesh
// (src/text/attr_fast_path.h): what it takes it reads as the token parser
// does, and it leaves everything else to the token parser.
#include "src/text/attr_fast_path.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

// The token parser's reading of `text`: a comment after the first `<`
// keeps the scan out.
TensorSharding tokenParsed(std::string_view text) {
  std::string with_comment = std::string(text);
  with_comment.insert(1, " // keeps the scan out\n");
  TensorSharding unused;
  REQUIRE(fastParseTensorSharding(with_comment, 0, unused) ==
          std::string_view::npos);
  absl::StatusOr<TensorSharding> parsed = parseTensorSharding(with_comment);
  INFO(std::string(fromAbsl(parsed.status().message())));
  REQUIRE(parsed.ok());
  return *parsed;
}

TEST_CASE("the scan reads shardings as the token parser does") {
  for (std::string_view text : {
           R"(<@mesh, []>)",
           R"(<@mesh, [{}, {?}]>)",
           R"(<@mesh, [{"x":(1)2, "y"}, {"z", ?}p1, {"x":(2)4}p0]>)",
           R"(<@m.n-1, [{"a"}p12, {}], replicated={"b", "c":(2)2}>)",
           R"(<@mesh, [{}], unreduced={"x"}>)",
           R"(<@mesh, [{}], unreduced=max{"x"}, replicated={"y"}>)",
           R"(<@mesh, [{}], unreduced=min{"x"}>)",
           R"(<@mesh, [{}], unreduced=sum{"x"}>)",
           // The printer's one space after a comma is optional.
           R"(<@mesh,[{"x","y":(1)2,?}p3,{}],replicated={"z","w"}>)",
           R"(<@mesh, [{""}, {"long axis name past the inline buffer"}]>)",
           R"(<mesh<["x"=2, "y"=4]>, [{"x"}, {"y"}]>)",
           R"(<mesh<[], device_ids=[3]>, []>)",
           R"(<mesh<["x"=4], device_ids=[0, 1, 2, 3]>, [{"x"}]>)",
           R"(<mesh<["x"=4], device_ids=[3, 2, 1, 0]>, [{"x"}]>)",
       }) {
    INFO(text);
    TensorSharding scanned;
    REQUIRE(fastParseTensorSharding(text, 0, scanned) == text.size());
    CHECK(scanned == tokenParsed(text));
    // The same without end checks, in a text a NUL follows.
    std::string terminated(text);
    TensorSharding unchecked;
    REQUIRE(fastParseTensorSharding(terminated, 0, unchecked, TextEnd::kNul) ==
            text.size());
    CHECK(unchecked == scanned);
  }
}

TEST_CASE("the scan stops after the sharding and starts anywhere") {
  std::string_view text = R"(x = <@mesh, [{"x"}]> : tensor<8xf32>)";
  TensorSharding scanned;
  size_t end = fastParseTensorSharding(text, 4, scanned);
  REQUIRE(end == text.find(" :"));
  CHECK(toString(scanned) == R"(<@mesh, [{"x"}]>)");
}

TEST_CASE("the scan leaves what it does not take to the token parser") {
  for (std::string_view text : {
           // Valid text outside the subset.
           R"(<@"quoted", [{}]>)",
           R"(<@mesh, [{"a\22b"}]>)",
           R"(<@mesh, [{"x":(-1)2}]>)",
           R"(<@mesh, [{"x":(0x1)2}]>)",
           R"(<@mesh, [{"x":(1234567890123456789)2}]>)",
           // Numbers too long for int64 (the scan must not overflow on them).
           R"(<@mesh, [{"x":(1)20000000000000000000000000000000000000}]>)",
           R"(<mesh<["m"=20000000000000000000000000000000000000]>, []>)",
           R"(<@mesh, [{}] // comment
              >)",
           // Blanks where the printer puts none, or more than one.
           "<\n  @mesh ,\t[ { \"x\" : ( 1 ) 2 , ? } p3 ] \r>",
           R"(<@mesh,  [{"x"}]>)",
           R"(<@mesh, [{"x"} ]>)",
           R"(<@mesh, [{"x"}]  >)",
           R"(<@mesh, [{"x"} p1]>)",
           R"(<@mesh, [{}], replicated = {"x"}>)",
           "<@mesh,\n[{}]>",
           // Errors, whose messages only the token parser knows.
           R"(<@mesh, [{"x"}p 1]>)",
           R"(<@mesh, [{"x"}p01]>)",
           R"(<@mesh, [{"x"}p00]>)",
           // Text that ends inside a priority (nothing past the end is read).
           R"(<@mesh, [{"x"}p0)",
           R"(<@mesh, [{"x"}q1]>)",
           R"(<@mesh, [{"x"}p1x]>)",
           R"(<@mesh, [{"x" "y"}]>)",
           R"(<@mesh, [{"x",}]>)",
           R"(<@mesh, [{?, "x"}]>)",
           R"(<@mesh, [{}], replicated={}>)",
           R"(<@mesh, [{}], replicated={"x"}, replicated={"y"}>)",
           R"(<@mesh, [{"x":(1.5)2}]>)",
           R"(<@mesh, [{"x}]>)",
           R"(<@, [{}]>)",
           R"(<mesh<["x"=0]>, []>)",
           R"(<mesh<["x"=2], device_ids=[]>, []>)",
           R"(<@mesh, [{}])",
       }) {
    INFO(text);
    // An exact-size copy, without a terminator: under ASan a read past the
    // end of the text fails.
    std::vector<char> exact(text.begin(), text.end());
    TensorSharding scanned;
    CHECK(fastParseTensorSharding(std::string_view(exact.data(), exact.size()),
                                  0, scanned) == std::string_view::npos);
    // Without end checks, the NUL after the text stops the scan.
    std::string terminated(text);
    CHECK(fastParseTensorSharding(terminated, 0, scanned, TextEnd::kNul) ==
          std::string_view::npos);
  }
}

TEST_CASE("errors and values past the scan are the token parser's") {
  // The token parser reads these; the scan declined them above.
  CHECK(toString(*parseTensorSharding(R"(<@mesh, [{"x":(-1)2}]>)")) ==
        R"(<@mesh, [{"x":(-1)2}]>)");
  absl::StatusOr<TensorSharding> leading_zero =
      parseTensorSharding(R"(<@mesh, [{"x"}p01]>)");
  REQUIRE_FALSE(leading_zero.ok());
  CHECK(fromAbsl(leading_zero.status().message()) ==
        "1:15: priorities with leading zeros are not allowed, got: p01");
}

TEST_CASE("the scan reads meshes as the token parser does") {
  for (std::string_view text : {
           R"(<[]>)",
           R"(<["x"=2, "y"=4]>)",
           R"(<["x"=2, "y"=2], device_ids=[0, 1, 2, 3]>)",
           R"(<["x"=2, "y"=2], device_ids=[3, 1, 2, 0]>)",
           R"(<[], device_ids=[7]>)",
       }) {
    INFO(text);
    Mesh scanned;
    REQUIRE(fastParseMesh(text, 0, scanned) == text.size());
    Mesh unchecked;
    REQUIRE(fastParseMesh(std::string(text), 0, unchecked, TextEnd::kNul) ==
            text.size());
    CHECK(unchecked == scanned);
    std::string with_comment = std::string(text);
    with_comment.insert(1, "// keeps the scan out\n");
    absl::StatusOr<Mesh> parsed = parseMesh(with_comment);
    REQUIRE(parsed.ok());
    CHECK(scanned == *parsed);
  }
  Mesh scanned;
  CHECK(fastParseMesh(R"(<["x"=-2]>)", 0, scanned) == std::string_view::npos);
  CHECK(fastParseMesh(R"(<["x" = 2]>)", 0, scanned) == std::string_view::npos);
  CHECK(fastParseMesh(R"(<["x"=2],device_ids=[1,0]>)", 0, scanned) == 26);
  CHECK(fastParseMesh(R"(<["m"=99999999999999999999999999, "x"=2]>)", 0,
                      scanned) == std::string_view::npos);
}

// What a parse gives: the value's text, or the error message.
template <typename T>
std::string printedOrError(const absl::StatusOr<T>& parsed) {
  if (!parsed.ok()) return std::string(fromAbsl(parsed.status().message()));
  return toString(*parsed);
}

TEST_CASE("whole-text parsing takes the scan's reading only up to blanks") {
  // parseTensorSharding / parseMesh try the scan on the whole text first;
  // anything but blanks after what it read goes to the token parser. Each
  // case: the text, then what it prints as or the error it gives.
  struct Case {
    std::string_view text;
    std::string_view result;
  };
  for (const Case& c : std::vector<Case>{
           {"<@mesh, [{\"x\"}, {}]> \t\r\n", R"(<@mesh, [{"x"}, {}]>)"},
           // Outside the scan's spelling: the token parser reads it.
           {"<\n  @mesh ,\t[ { \"x\" : ( 1 ) 2 , ? } p3 ] \r>",
            R"(<@mesh, [{"x":(1)2, ?}p3]>)"},
           {R"(#sdy.sharding<@mesh, [{"x"}]>)", R"(<@mesh, [{"x"}]>)"},
           {"<@mesh, [{\"x\"}]> // after\n", R"(<@mesh, [{"x"}]>)"},
           {R"(<@mesh, [{"x"}]> x)", "1:18: expected end of input, got 'x'"},
       }) {
    INFO(c.text);
    CHECK(printedOrError(parseTensorSharding(c.text)) == c.result);
  }
  for (const Case& c : std::vector<Case>{
           {"<[\"a\"=2]>\n", R"(<["a"=2]>)"},
           {R"(<["a"=2]>>)", "1:10: expected end of input, got '>'"},
       }) {
    INFO(c.text);
    CHECK(printedOrError(parseMesh(c.text)) == c.result);
  }
}

TEST_CASE("whole-text parsing reads short and long texts alike") {
  // A short text is scanned in a copy on the stack, a long one in place:
  // lengths on both sides of the copy's size read the same, and a text
  // truncated anywhere is an error.
  for (size_t name_size = 180; name_size < 300; name_size += 7) {
    std::string text = R"(<@mesh, [{")" + std::string(name_size, 'a') +
                       R"("}, {"b":(1)2, ?}p1], replicated={"c"}>)";
    INFO(text.size());
    absl::StatusOr<TensorSharding> parsed = parseTensorSharding(text);
    REQUIRE(parsed.ok());
    CHECK(toString(*parsed) == text);
    CHECK_FALSE(parseTensorSharding(text.substr(0, text.size() - 1)).ok());
    CHECK_FALSE(parseTensorSharding(text.substr(0, 30)).ok());
  }
}

}  // namespace
}  // namespace shardkit
