// The one-shot parsers of parse.h for meshes, axis refs, dimension and
// tensor shardings: every accepted form (checked by printing the result,
// which must be the reference's printed form) and the exact error, with its
// column, for malformed text, including the reference's parsing-failure
// cases. Rules and collective parameters are in parse_rule_test.cc.
#include "shardkit/text/parse.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/support/strings.h"
#include "unit/text/parse_test_util.h"

namespace shardkit {
namespace {

using testing::errorOf;
using testing::printed;

// ---------------------------------------------------------------------------
// Meshes
// ---------------------------------------------------------------------------

TEST_CASE("parseMesh: accepted forms") {
  CHECK(printed(parseMesh("<[]>")) == "<[]>");
  CHECK(printed(parseMesh("#sdy.mesh<[\"a\"=2, \"b\"=4]>")) ==
        R"(<["a"=2, "b"=4]>)");
  CHECK(printed(parseMesh(R"(<["a"=2], device_ids=[1, 0]>)")) ==
        R"(<["a"=2], device_ids=[1, 0]>)");
  CHECK(printed(parseMesh("<[], device_ids=[3]>")) == "<[], device_ids=[3]>");
  CHECK(printed(parseMesh("<[], device_ids=[0]>")) == "<[], device_ids=[0]>");
  // An explicit iota order is dropped, as the reference prints it.
  CHECK(printed(parseMesh(R"(<["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>)")) ==
        R"(<["a"=2, "b"=2]>)");
  CHECK(printed(parseMesh(R"(<["a"=1], device_ids=[0]>)")) == R"(<["a"=1]>)");
  // Whitespace, comments, hex sizes and escapes.
  CHECK(printed(parseMesh("  < [ \"a\" = 0x10 ,\n \"b\\\"\" = 2 ] > // c")) ==
        R"(<["a"=16, "b\22"=2]>)");
  CHECK(printed(parseMesh(R"(<["\C3\A9"=2]>)")) == R"(<["\C3\A9"=2]>)");
  absl::StatusOr<Mesh> escaped = parseMesh(R"(<["\C3\A9"=2]>)");
  REQUIRE(escaped.ok());
  CHECK(escaped->axes[0].name == "\xC3\xA9");
  // Only syntax is checked: duplicate names and bad ids are the verifier's.
  CHECK(printed(parseMesh(R"(<["a"=2, "a"=2], device_ids=[-1, 7]>)")) ==
        R"(<["a"=2, "a"=2], device_ids=[-1, 7]>)");
}

TEST_CASE("parseMesh: errors") {
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2, "b"=0]>)", "0]",
                    "axis size must be at least 1, got: 0");
  CHECK(errorOf(parseMesh("<[\"a\"=2,\n  \"b\"=-1]>")) ==
        "2:7: axis size must be at least 1, got: -1");
  CHECK_PARSE_ERROR(parseMesh, R"(<[a=2]>)",
                    "a=", "expected string (axis name), got 'a'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"]>)", "]", "expected '=', got ']'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2.5]>)", "2.5",
                    "expected axis size, got '2.5'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=99999999999999999999]>)", "999",
                    "integer 99999999999999999999 does not fit in 64 bits");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2], ids=[0]>)", "ids",
                    "expected 'device_ids', got 'ids'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2], device_ids=[x]>)", "x",
                    "expected device id, got 'x'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2], device_ids=[]>)", "]>",
                    "expected device id, got ']'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2], device_ids=[1 0]>)", "0]",
                    "expected ']', got '0'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"=2] ["b"=2]>)", "[\"b",
                    "expected '>', got '['");
  CHECK_PARSE_ERROR(parseMesh, R"(["a"=2])", "[", "expected '<', got '['");
  CHECK_PARSE_ERROR(parseMesh, R"(#sdy.sharding<[]>)", "#",
                    "expected '#sdy.mesh', got '#sdy.sharding'");
  CHECK_PARSE_ERROR_AT_END(parseMesh, R"(<["a"=2)",
                           "expected ']', got end of input");
  CHECK_PARSE_ERROR_AT_END(parseMesh, "", "expected '<', got end of input");
  CHECK_PARSE_ERROR(parseMesh, R"(<[]> <["a"=2]>)", "<[\"a",
                    "expected end of input, got '<'");
}

// ---------------------------------------------------------------------------
// Axis refs, axis lists and dimension shardings
// ---------------------------------------------------------------------------

TEST_CASE("parseAxisRef and parseAxisRefList") {
  CHECK(*parseAxisRef(R"("x")") == AxisRef("x"));
  CHECK(*parseAxisRef(R"("x":(2)4)") == AxisRef("x", 2, 4));
  CHECK(*parseAxisRef(R"( "x" : ( 2 ) 4 )") == AxisRef("x", 2, 4));
  CHECK(printed(parseAxisRefList("{}")) == "{}");
  CHECK(printed(parseAxisRefList(R"({"a","b":(1)2})")) == R"({"a", "b":(1)2})");

  CHECK_PARSE_ERROR(parseAxisRef, R"("x":2)", "2", "expected '(', got '2'");
  CHECK_PARSE_ERROR(parseAxisRef, R"("x":(2}4)", "}", "expected ')', got '}'");
  CHECK_PARSE_ERROR(parseAxisRef, R"("x":(p)4)", "p",
                    "expected sub-axis pre-size, got 'p'");
  CHECK_PARSE_ERROR_AT_END(parseAxisRef, R"("x":(2))",
                           "expected sub-axis size, got end of input");
  CHECK_PARSE_ERROR(parseAxisRef, R"(x)", "x",
                    "expected string (axis name), got 'x'");
  CHECK_PARSE_ERROR(parseAxisRef, R"("\q")", "\"",
                    R"(invalid escape sequence in string "\q" (expected \", )"
                    R"(\\, \n, \t or \ and two hex digits))");
  CHECK_PARSE_ERROR(parseAxisRef, R"("x)", "\"",
                    "expected string (axis name), got invalid character '\"'");
  CHECK_PARSE_ERROR(parseAxisRefList, R"({"a",})", "}",
                    "expected string (axis name), got '}'");
  CHECK_PARSE_ERROR(parseAxisRefList, R"({"a" "b"})", "\"b",
                    "expected '}', got string \"b\"");
  CHECK_PARSE_ERROR(parseAxisRefList, R"(["a"])", "[", "expected '{', got '['");
}

TEST_CASE("parseDimensionSharding") {
  CHECK(printed(parseDimensionSharding("{}")) == "{}");
  CHECK(printed(parseDimensionSharding("{?}")) == "{?}");
  CHECK(printed(parseDimensionSharding(R"({"a", ?})")) == R"({"a", ?})");
  CHECK(printed(parseDimensionSharding(R"({"a","b":(2)2})")) ==
        R"({"a", "b":(2)2})");
  CHECK(printed(parseDimensionSharding(R"({"a"}p0)")) == R"({"a"}p0)");
  CHECK(printed(parseDimensionSharding(R"({"a"} p7)")) == R"({"a"}p7)");
  CHECK(printed(parseDimensionSharding("{?}p12")) == "{?}p12");
  absl::StatusOr<DimensionSharding> big =
      parseDimensionSharding("{}p9223372036854775807");
  REQUIRE(big.ok());
  CHECK(big->priority == INT64_MAX);

  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a"}phigh)", "phigh",
                    "expecting priority in format 'p<number>', got: phigh");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a"}p)", "p",
                    "expecting priority in format 'p<number>', got: p");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a"}q1)", "q1",
                    "expecting priority in format 'p<number>', got: q1");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a"}p01)", "p01",
                    "priorities with leading zeros are not allowed, got: p01");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a"}p9223372036854775808)",
                    "p9",
                    "expecting integer priority, got: p9223372036854775808 (a "
                    "priority is at most 2^63-1)");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({?, "a"})", ", \"a",
                    "expected '}', got ','");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a" ?})", "?",
                    "expected ',', got '?'");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({,})", ",",
                    "expected string (axis name), got ','");
  CHECK_PARSE_ERROR(parseDimensionSharding, R"({"a"}p1 p2)", "p2",
                    "expected end of input, got 'p2'");
  CHECK_PARSE_ERROR_AT_END(parseDimensionSharding, R"({"a")",
                           "expected ',', got end of input");
}

// ---------------------------------------------------------------------------
// Tensor shardings
// ---------------------------------------------------------------------------

TEST_CASE("parseTensorSharding: the reference's printed forms") {
  for (const char* text : {
           R"(<@foo, [], replicated={"b"}>)",
           R"(<@foo, [{"a"}, {}]>)",
           R"(<@foo, [{}, {}], replicated={"a", "b"}>)",
           R"(<@foo, [{}, {}], unreduced={"a", "b"}>)",
           R"(<@foo, [{}, {}], unreduced=max{"a"}>)",
           R"(<@foo, [{}, {}], unreduced=min{"a"}>)",
           R"(<@foo, [{}, {}], replicated={"a"}, unreduced={"b"}>)",
           R"(<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>)",
           R"(<mesh<["x"=2], device_ids=[1, 0]>, [{"x"}, {}]>)",
           R"(<mesh<[], device_ids=[4]>, []>)",
           R"(<mesh<[]>, [{?}]>)",
           R"(<@foo, [{"a", ?}, {?}]>)",
           R"(<@foo, [{"a", "b", ?}, {}]>)",
           R"(<@foo, [{"a"}, {"b":(2)2}]>)",
           R"(<@foo, [{"a"}, {}], replicated={"b":(2)2}>)",
           R"(<@foo, [{"a"}, {}], unreduced={"b":(2)2}>)",
           R"(<@bar, [{"a":(1)2, "b", "a":(2)2}, {}]>)",
           R"(<@bar, [{"a":(2)2, "a":(1)2}, {}]>)",
           R"(<@foo, [{"a"}p0, {"b"}p1]>)",
           R"(<@maximal_mesh, []>)",
           R"(<@"quoted mesh", [{"a"}]>)",
       }) {
    INFO(text);
    CHECK(printed(parseTensorSharding(text)) == text);
    CHECK(printed(parseTensorSharding(std::string("#sdy.sharding") + text)) ==
          text);
  }
}

TEST_CASE("parseTensorSharding: normalised forms") {
  // Either order of replicated and unreduced; printed replicated first.
  CHECK(printed(parseTensorSharding(
            R"(<@foo, [{}, {}], unreduced={"b"}, replicated={"a"}>)")) ==
        R"(<@foo, [{}, {}], replicated={"a"}, unreduced={"b"}>)");
  // An explicit `sum` is the default and is not printed.
  CHECK(printed(parseTensorSharding(R"(<@foo, [{}], unreduced=sum{"b"}>)")) ==
        R"(<@foo, [{}], unreduced={"b"}>)");
  CHECK(printed(parseTensorSharding(
            R"(<mesh<["x"=2], device_ids=[0, 1]>, [{"x"}, {}]>)")) ==
        R"(<mesh<["x"=2]>, [{"x"}, {}]>)");
  CHECK(printed(parseTensorSharding("<@\"m\", []>")) == "<@m, []>");
  CHECK(printed(parseTensorSharding("<@a-b, []>")) == R"(<@"a-b", []>)");
  CHECK(printed(parseTensorSharding(
            "\n<@foo,\n  [ {\"a\" , ?} ,{ } ] , replicated = {\"b\"} >\n")) ==
        R"(<@foo, [{"a", ?}, {}], replicated={"b"}>)");

  absl::StatusOr<TensorSharding> s = parseTensorSharding(
      R"(<@"my\22mesh", [{"x":(2)4, ?}p3], unreduced=max{"y"}>)");
  REQUIRE(s.ok());
  CHECK(s->meshName() == "my\"mesh");
  REQUIRE(s->rank() == 1);
  CHECK(s->dim_shardings[0] ==
        DimensionSharding({AxisRef("x", 2, 4)}, false, 3));
  CHECK(s->unreduced_axes == AxisRefVector{AxisRef("y")});
  CHECK(s->unreduced_kind == ReductionKind::kMax);
}

TEST_CASE("parseTensorSharding: the reference's parsing failures") {
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{"a"}, {"b"}phigh]>)",
                    "phigh",
                    "expecting priority in format 'p<number>', got: phigh");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{"a"}, {"b"}p9999999999999999999]>)", "p9",
                    "expecting integer priority, got: p9999999999999999999 (a "
                    "priority is at most 2^63-1)");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{"a"}p01, {"b"}]>)", "p01",
                    "priorities with leading zeros are not allowed, got: p01");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], replicated{"a", "b"}>)", "{\"a\"",
                    "expected '=', got '{'");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], unreduced=["a", "b"]>)", "[\"a\"",
                    "expected '{', got '['");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], unreduced={"a", "b"[]}>)", "[]}",
                    "expected '}', got '['");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], replicated={"a", b}>)", "b}",
                    "expected string (axis name), got 'b'");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], unreduced={"a", b}>)", "b}",
                    "expected string (axis name), got 'b'");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], replicated unreduced={"a", "b"}>)",
                    "unreduced", "expected '=', got 'unreduced'");

  const std::string after_comma =
      "failed to parse Sdy_TensorSharding, expected valid named axis list "
      "after comma ('replicated={...}' or "
      "'unreduced={...}', each at most once), got ";
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}, {}],>)", ">",
                    after_comma + "'>'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}, {}], unknown={"a"}>)",
                    "unknown", after_comma + "'unknown'");
  CHECK_PARSE_ERROR_AT_LAST(parseTensorSharding,
                            R"(<@foo, [{}, {}], replicated={"a"}, >)", ">",
                            after_comma + "'>'");
  CHECK_PARSE_ERROR_AT_LAST(
      parseTensorSharding,
      R"(<@foo, [{}, {}], replicated={"a"}, unreduced={"b"}, >)", ">",
      after_comma + "'>'");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}, {}], replicated={"a"}, replicated={"b"}>)",
                    "replicated={\"b", after_comma + "'replicated'");
  CHECK_PARSE_ERROR(
      parseTensorSharding,
      R"(<@foo, [{}, {}], replicated={"a"}, unreduced={"b"}, unreduced={"b"}>)",
      "unreduced={\"b\"}>", after_comma + "'unreduced'");
}

TEST_CASE("parseTensorSharding: other errors") {
  // Like the reference, an empty replicated or unreduced list is spelled by
  // leaving it out.
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}], replicated={}>)", "}>",
                    "expected string (axis name), got '}'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}], unreduced=max{}>)",
                    "}>", "expected string (axis name), got '}'");
  CHECK_PARSE_ERROR(parseTensorSharding,
                    R"(<@foo, [{}], unreduced=maximum{"a"}>)", "maximum",
                    "expected '{', got 'maximum'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<[{}]>)", "[",
                    "expected mesh symbol '@name' or inline 'mesh<...>', got "
                    "'['");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<meshy, []>)", "meshy",
                    "expected mesh symbol '@name' or inline 'mesh<...>', got "
                    "'meshy'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo [{}]>)", "[",
                    "expected ',', got '['");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, {}>)", "{",
                    "expected '[', got '{'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{"a"} {}]>)", "{}",
                    "expected ']', got '{'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<mesh<["a"=0]>, []>)", "0",
                    "axis size must be at least 1, got: 0");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@"\q", []>)", "@",
                    R"(invalid escape sequence in symbol name @"\q" )"
                    R"((expected \", \\, \n, \t or \ and two hex digits))");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, []> x)", "x",
                    "expected end of input, got 'x'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(#sdy.mesh<@foo, []>)", "#",
                    "expected '#sdy.sharding', got '#sdy.mesh'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{"a}]>)", "\"a",
                    "expected string (axis name), got invalid character '\"'");
  CHECK_PARSE_ERROR_AT_END(parseTensorSharding, R"(<@foo, [{}])",
                           "expected '>', got end of input");
  CHECK_PARSE_ERROR_AT_END(parseTensorSharding, "",
                           "expected '<', got end of input");
  CHECK(errorOf(parseTensorSharding("<@foo,\n [{\"a\"}p01]>")) ==
        "2:8: priorities with leading zeros are not allowed, got: p01");
}

TEST_CASE("parseTensorShardingPerValue") {
  CHECK(printed(parseTensorShardingPerValue("<[]>")) == "<[]>");
  CHECK(printed(parseTensorShardingPerValue("#sdy.sharding_per_value<[]>")) ==
        "<[]>");
  const char* two =
      R"(<[<mesh<["a"=2, "b"=4]>, [{"a"}, {}]>, <@foo, [{"a"}, {}]>]>)";
  CHECK(printed(parseTensorShardingPerValue(two)) == two);
  CHECK(printed(parseTensorShardingPerValue(
            std::string("#sdy.sharding_per_value") + two)) == two);

  CHECK_PARSE_ERROR(parseTensorShardingPerValue,
                    R"(<[<@foo, [{"a"}, {"b"}phigh]>]>)", "phigh",
                    "expecting priority in format 'p<number>', got: phigh");
  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(<<@foo, []>>)", "<@",
                    "expected '[', got '<'");
  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(<[<@foo, []> <@foo, []>]>)",
                    "<@foo, []>]", "expected ']', got '<'");
  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(#sdy.sharding<[]>)", "#",
                    "expected '#sdy.sharding_per_value', got '#sdy.sharding'");
}

}  // namespace
}  // namespace shardkit
