// The one-shot parsers of parse.h: every attribute's accepted forms (checked
// by printing the result, which must be the reference's printed form) and
// the exact error, with its column, for malformed text. The invalid inputs
// cover the reference's parsing-failure cases for shardings and rules.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/strings.h"
#include "shardkit/core/verify.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

template <typename T>
std::string printed(const absl::StatusOr<T>& parsed) {
  INFO(std::string(fromAbsl(parsed.status().message())));
  REQUIRE(parsed.ok());
  return std::string(toString(*parsed));
}

template <typename T>
std::string errorOf(const absl::StatusOr<T>& parsed) {
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(fromAbsl(parsed.status().message()));
}

// "1:COL: message" where COL is where `at` first occurs in `text` (1-based);
// `at` must occur.
std::string errorAt(std::string_view text, std::string_view at,
                    std::string_view message) {
  size_t offset = text.find(at);
  REQUIRE(offset != std::string_view::npos);
  return strCat("1:", offset + 1, ": ", message);
}
// Same, at the last occurrence of `at`.
std::string errorAtLast(std::string_view text, std::string_view at,
                        std::string_view message) {
  size_t offset = text.rfind(at);
  REQUIRE(offset != std::string_view::npos);
  return strCat("1:", offset + 1, ": ", message);
}
std::string errorAtEnd(std::string_view text, std::string_view message) {
  return strCat("1:", text.size() + 1, ": ", message);
}

#define CHECK_PARSE_ERROR(parser, text, at, message) \
  CHECK(errorOf(parser(text)) == errorAt(text, at, message))
#define CHECK_PARSE_ERROR_AT_LAST(parser, text, at, message) \
  CHECK(errorOf(parser(text)) == errorAtLast(text, at, message))
#define CHECK_PARSE_ERROR_AT_END(parser, text, message) \
  CHECK(errorOf(parser(text)) == errorAtEnd(text, message))

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
        R"(<["a"=16, "b\""=2]>)");
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
  CHECK_PARSE_ERROR(parseMesh, R"(<[a=2]>)", "a=",
                    "expected string (axis name), got 'a'");
  CHECK_PARSE_ERROR(parseMesh, R"(<["a"]>)", "]",
                    "expected '=', got ']'");
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
  CHECK_PARSE_ERROR(parseMesh, R"(["a"=2])", "[",
                    "expected '<', got '['");
  CHECK_PARSE_ERROR(parseMesh, R"(#sdy.sharding<[]>)", "#",
                    "expected '#sdy.mesh', got '#sdy.sharding'");
  CHECK_PARSE_ERROR_AT_END(parseMesh, R"(<["a"=2)",
                           "expected ']', got end of input");
  CHECK_PARSE_ERROR_AT_END(parseMesh, "",
                           "expected '<', got end of input");
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
  CHECK(printed(parseAxisRefList(R"({"a","b":(1)2})")) ==
        R"({"a", "b":(1)2})");

  CHECK_PARSE_ERROR(parseAxisRef, R"("x":2)", "2",
                    "expected '(', got '2'");
  CHECK_PARSE_ERROR(parseAxisRef, R"("x":(2}4)", "}",
                    "expected ')', got '}'");
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
  CHECK_PARSE_ERROR(parseAxisRefList, R"(["a"])", "[",
                    "expected '{', got '['");
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
  CHECK_PARSE_ERROR(
      parseDimensionSharding, R"({"a"}p9223372036854775808)", "p9",
      "expecting integer priority (at most 2^63-1), got: "
      "p9223372036854775808");
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
  CHECK(s->unreduced_axes == std::vector<AxisRef>{AxisRef("y")});
  CHECK(s->unreduced_kind == ReductionKind::kMax);
}

TEST_CASE("parseTensorSharding: the reference's parsing failures") {
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{"a"}, {"b"}phigh]>)",
                    "phigh",
                    "expecting priority in format 'p<number>', got: phigh");
  CHECK_PARSE_ERROR(
      parseTensorSharding, R"(<@foo, [{"a"}, {"b"}p9999999999999999999]>)",
      "p9",
      "expecting integer priority (at most 2^63-1), got: "
      "p9999999999999999999");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{"a"}p01, {"b"}]>)",
                    "p01",
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
      "expected valid named axis list after comma ('replicated={...}' or "
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
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}], replicated={}>)",
                    "}>", "expected string (axis name), got '}'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}], unreduced=max{}>)",
                    "}>", "expected string (axis name), got '}'");
  CHECK_PARSE_ERROR(parseTensorSharding, R"(<@foo, [{}], unreduced=maximum{"a"}>)",
                    "maximum", "expected '{', got 'maximum'");
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

  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(<[<@foo, [{"a"}, {"b"}phigh]>]>)",
                    "phigh",
                    "expecting priority in format 'p<number>', got: phigh");
  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(<<@foo, []>>)", "<@",
                    "expected '[', got '<'");
  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(<[<@foo, []> <@foo, []>]>)",
                    "<@foo, []>]", "expected ']', got '<'");
  CHECK_PARSE_ERROR(parseTensorShardingPerValue, R"(#sdy.sharding<[]>)", "#",
                    "expected '#sdy.sharding_per_value', got '#sdy.sharding'");
}

// ---------------------------------------------------------------------------
// Op sharding rules
// ---------------------------------------------------------------------------

TEST_CASE("parseOpShardingRule: the reference's printed forms") {
  for (const char* text : {
           "<([], [])->([])>",
           "<([i, j])->([ij]) {i=2, j=4}>",
           "<([i, j])->([i, j]) {i=16, j=32}, custom>",
           "<([i])->([i]) {i=8589934592}, custom>",
           "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} "
           "need_replication={i, l} permutation={k}, custom>",
           "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} "
           "need_replication={i, l} permutation={k} blocked_propagation={l}>",
           "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>",
       }) {
    INFO(text);
    CHECK(printed(parseOpShardingRule(text)) == text);
    CHECK(printed(parseOpShardingRule(std::string("#sdy.op_sharding_rule") +
                                      text)) == text);
  }
}

std::string iotaSymbols(int64_t n, std::string_view separator) {
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    if (i) out += separator;
    out += factorSymbol(i);
  }
  return out;
}

TEST_CASE("parseOpShardingRule: z_N symbols and compound dimensions") {
  // 20 factors: `zz_1` is the compound of factors 17 and 18.
  std::string sizes = "{";
  for (int64_t i = 0; i < 20; ++i) {
    strAppend(sizes, i ? ", " : "", factorSymbol(i), "=2");
  }
  sizes += "}";
  std::string text = "<([" + iotaSymbols(20, ", ") + "])->([" +
                     iotaSymbols(17, ", ") + ", zz_1, z_2]) " + sizes + ">";
  absl::StatusOr<OpShardingRule> rule = parseOpShardingRule(text);
  CHECK(printed(rule) == text);
  REQUIRE(rule.ok());
  CHECK(rule->result_mappings[0].dim_mappings[17].factor_indices ==
        std::vector<int64_t>{17, 18});
  CHECK(rule->result_mappings[0].dim_mappings[18].factor_indices ==
        std::vector<int64_t>{19});

  absl::StatusOr<OpShardingRule> compound =
      parseOpShardingRule("<([z_8z_9z_10, ijz_1])->([z_2i])>");
  REQUIRE(compound.ok());
  CHECK(compound->operand_mappings[0].dim_mappings[0].factor_indices ==
        std::vector<int64_t>{25, 26, 27});
  CHECK(compound->operand_mappings[0].dim_mappings[1].factor_indices ==
        std::vector<int64_t>{0, 1, 18});
  // `z_2i` is z_2 then i, like the reference reads it.
  CHECK(compound->result_mappings[0].dim_mappings[0].factor_indices ==
        std::vector<int64_t>{19, 0});
  CHECK(printed(compound) == "<([z_8z_9z_10, ijz_1])->([z_2i])>");
  absl::StatusOr<OpShardingRule> largest =
      parseOpShardingRule("<([z_9223372036854775790])->([i])>");
  REQUIRE(largest.ok());
  CHECK(largest->operand_mappings[0].dim_mappings[0].factor_indices ==
        std::vector<int64_t>{INT64_MAX});
}

TEST_CASE("parseOpShardingRule: lenient forms") {
  // Empty braces, and an empty dim mapping, which (as in the reference)
  // parses and is rejected by the verifier.
  CHECK(printed(parseOpShardingRule("<([i])->([i]) {} reduction={}>")) ==
        "<([i])->([i])>");
  absl::StatusOr<OpShardingRule> empty_dims =
      parseOpShardingRule("<([i, ], [,])->([i]) {i=4}>");
  CHECK(printed(empty_dims) == "<([i, ], [, ])->([i]) {i=4}>");
  REQUIRE(empty_dims.ok());
  CHECK(empty_dims->operand_mappings[1].rank() == 2);
  CHECK(printed(parseOpShardingRule(
            " < ( [ i ] , [ i ] ) -> ( [ i ] ) { i = 0x8 } , custom > ")) ==
        "<([i], [i])->([i]) {i=8}, custom>");
}

TEST_CASE("parseOpShardingRule: an empty dim mapping is the verifier's to "
          "reject") {
  absl::StatusOr<OpShardingRule> rule =
      parseOpShardingRule("<([i, ])->([i]) {i=4}>");
  REQUIRE(rule.ok());
  const std::vector<int64_t> operand = {4, 4}, result = {4};
  absl::Status status = verifyOpShardingRule(
      *rule, {TensorShapeView(operand)}, {TensorShapeView(result)});
  CHECK_THAT(std::string(fromAbsl(status.message())),
             Catch::Contains("dim mapping must have at least one factor"));
}

TEST_CASE("parseOpShardingRule: the reference's parsing failures") {
  CHECK_PARSE_ERROR_AT_LAST(parseOpShardingRule,
                            "<([i, j])->([i, j]) {i=16, j=32},>", ">",
                            "expected 'custom', got '>'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([i, j])->([i, j]) {i=16, j=32}, custom_rule>",
                    "custom_rule", "expected 'custom', got 'custom_rule'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, j])->([i j]) {i=2, j=4}>",
                    "j]) {", "expected ']', got 'j'");
  const std::string iota =
      "expecting factor indices to be ordered like an iota ([0,1,2,...], "
      "e.g. {i=#, j=#, ...}). Expecting factor index symbol ";
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, j])->([ij]) {j=4, i=2}>",
                    "j=4", iota + "'i', received: 'j'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, k])->([ik]) {i=2, k=4}>",
                    "k=4", iota + "'j', received: 'k'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([j, k])->([jk]) {j=2, k=4}>",
                    "j=2", iota + "'i', received: 'j'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([z_, j])->([i]) {z_=2, j=4}>", "z_,",
                    "expecting integer after 'z_'. Received: 'z_'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([i_1, j])->([i]) {i_1=2, j=4}>", "_1,",
                    "expecting symbol from 'i' to 'z'. Received: '_'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([z_z_1, j])->([i]) {z_1=2, j=4}>", "z_z",
                    "expecting integer after 'z_'. Received: 'z_z_1'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([z_0z_, j])->([i]) {z_0=2, j=4}>", "z_0z",
                    "expecting positive integer without leading zeros. "
                    "Received: '0'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([a, j])->([j]) {a=2, j=4}>",
                    "a,", "expecting symbol from 'i' to 'z'. Received: 'a'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_-1, j])->([i]) {i=2, j=4}>",
                    "z_", "expecting integer after 'z_'. Received: 'z_'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_ 1, j])->([i]) {i=2, j=4}>",
                    "z_", "expecting integer after 'z_'. Received: 'z_'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([j, z_0])->([jz_0]) {i=4, z_0=2}>", "z_0",
                    "expecting positive integer without leading zeros. "
                    "Received: '0'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([j, z_9223372036854775808])->([j]) {i=4}>", "z_9",
                    "expecting symbol index <=2^63-18 after 'z_'. Received: "
                    "'9223372036854775808'");
  // The reference overflows on the last 17 indices; shardkit rejects them.
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([j, z_9223372036854775807])->([j]) {i=4}>", "z_9",
                    "expecting symbol index <=2^63-18 after 'z_'. Received: "
                    "'9223372036854775807'");
  // `z_2i` parses (as z_2 then i); only the factor order is wrong.
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([j, z_2i])->([j]) {i=4, z_2=2}>", "z_2=",
                    iota + "'j', received: 'z_2'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([j, z_2_i])->([j]) {i=4}>",
                    "_i", "expecting symbol from 'i' to 'z'. Received: '_'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<()->([i, j]) {i=2, j=8}, custom>",
                    ")-", "expected '[', got ')'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, j])->() {i=2, j=8}, custom>",
                    ") {", "expected '[', got ')'");
  CHECK_PARSE_ERROR(
      parseOpShardingRule,
      "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction: {j}>",
      ": {", "expected '=', got ':'");
  CHECK_PARSE_ERROR(
      parseOpShardingRule,
      "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduce={j}>",
      "reduce", "expected '>', got 'reduce'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} "
                    "need_replication={i} reduction={j}>",
                    "reduction", "expected '>', got 'reduction'");
  CHECK_PARSE_ERROR(
      parseOpShardingRule,
      "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={a}>",
      "a}", "expecting symbol from 'i' to 'z'. Received: 'a'");
}

TEST_CASE("parseOpShardingRule: other errors") {
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, j])->([i]) reduction={jk}>",
                    "jk", "expecting single factor symbol: jk");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])->([i]) {ij=2}>", "ij=",
                    "expecting single factor symbol: ij");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])->([i]) {i 2}>", "2",
                    "expected '=', got '2'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])->([i]) {i=x}>", "x",
                    "expected factor size, got 'x'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])->([i]) {=2}>", "=",
                    "expected factor symbol, got '='");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([?])->([i])>", "?",
                    "expected factor symbols, ',' or ']', got '?'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i]->([i])>", "->",
                    "expected ')', got '->'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])([i])>", "([i])>",
                    "expected '->', got '('");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<[i]->[i]>", "[",
                    "expected '(', got '['");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])->([i]) reduction={,}>", ",}",
                    "expected factor symbol, got ','");
  // Factor lists need their braces.
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([i, j])->([i]) {i=2, j=3} reduction=j>", "j>",
                    "expected '{', got 'j'");
  CHECK_PARSE_ERROR_AT_END(parseOpShardingRule, "<([i])->([i])",
                           "expected '>', got end of input");
}

// ---------------------------------------------------------------------------
// Collective parameters and propagation directions
// ---------------------------------------------------------------------------

TEST_CASE("parseManualAxes") {
  CHECK(printed(parseManualAxes("{}")) == "{}");
  CHECK(printed(parseManualAxes(R"({"x","y"})")) == R"({"x", "y"})");
  CHECK_PARSE_ERROR(parseManualAxes, R"({"x", y})", "y",
                    "expected string (axis name), got 'y'");
  CHECK_PARSE_ERROR(parseManualAxes, R"(["x"])", "[",
                    "expected '{', got '['");
  CHECK_PARSE_ERROR(parseManualAxes, R"({"x":(1)2})", ":",
                    "expected '}', got ':'");
}

TEST_CASE("parseListOfAxisRefLists") {
  CHECK(printed(parseListOfAxisRefLists("[]")) == "[]");
  CHECK(printed(parseListOfAxisRefLists(R"([{}, {"x"}])")) ==
        R"([{}, {"x"}])");
  CHECK(printed(parseListOfAxisRefLists(R"([{}, {"x":(4)2, "z"}])")) ==
        R"([{}, {"x":(4)2, "z"}])");
  CHECK_PARSE_ERROR(parseListOfAxisRefLists, R"([{}, "x"])", "\"x",
                    "expected '{', got string \"x\"");
  CHECK_PARSE_ERROR(parseListOfAxisRefLists, R"({"x"})", "{",
                    "expected '[', got '{'");
}

TEST_CASE("parseAllToAllParamList") {
  CHECK(printed(parseAllToAllParamList("[]")) == "[]");
  for (const char* text : {R"([{"x"}: 0->1])",
                           R"([{"x"}: 0->2, {"y"}: 1->3])",
                           R"([{"y", "x"}: 0->1])"}) {
    CHECK(printed(parseAllToAllParamList(text)) == text);
  }
  absl::StatusOr<AllToAllParamList> params =
      parseAllToAllParamList(R"([{"x":(1)2} : 1 -> 0])");
  REQUIRE(params.ok());
  REQUIRE(params->params.size() == 1);
  CHECK(params->params[0] == AllToAllParam{{AxisRef("x", 1, 2)}, 1, 0});
  CHECK_PARSE_ERROR(parseAllToAllParamList, R"([{"x"} 0->1])", "0",
                    "expected ':', got '0'");
  CHECK_PARSE_ERROR(parseAllToAllParamList, R"([{"x"}: 0 1])", "1",
                    "expected '->', got '1'");
  CHECK_PARSE_ERROR(parseAllToAllParamList, R"([{"x"}: a->1])", "a",
                    "expected source dimension, got 'a'");
  CHECK_PARSE_ERROR(parseAllToAllParamList, R"([{"x"}: 0->])", "]",
                    "expected target dimension, got ']'");
}

TEST_CASE("parsePropagationDirection") {
  CHECK(*parsePropagationDirection("NONE") == PropagationDirection::kNone);
  CHECK(*parsePropagationDirection(" FORWARD ") ==
        PropagationDirection::kForward);
  CHECK(*parsePropagationDirection("BACKWARD") ==
        PropagationDirection::kBackward);
  CHECK(*parsePropagationDirection("BOTH") == PropagationDirection::kBoth);
  CHECK_PARSE_ERROR(parsePropagationDirection, "both", "both",
                    "expected NONE, FORWARD, BACKWARD or BOTH, got 'both'");
  CHECK_PARSE_ERROR_AT_END(
      parsePropagationDirection, "",
      "expected NONE, FORWARD, BACKWARD or BOTH, got end of input");
  CHECK_PARSE_ERROR(parsePropagationDirection, "BOTH NONE", "NONE",
                    "expected end of input, got 'NONE'");
}

}  // namespace
}  // namespace shardkit
