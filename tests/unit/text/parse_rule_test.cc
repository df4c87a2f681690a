// The one-shot parsers of parse.h for op sharding rules, collective
// parameters and propagation directions: accepted forms, printed back, and
// the exact located errors, including the reference's parsing-failure cases.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/verify.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"
#include "unit/text/parse_test_util.h"

namespace shardkit {
namespace {

using testing::errorOf;
using testing::printed;

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

TEST_CASE(
    "parseOpShardingRule: an empty dim mapping is the verifier's to "
    "reject") {
  absl::StatusOr<OpShardingRule> rule =
      parseOpShardingRule("<([i, ])->([i]) {i=4}>");
  REQUIRE(rule.ok());
  const std::vector<int64_t> operand = {4, 4}, result = {4};
  absl::Status status = verifyOpShardingRule(*rule, {TensorShapeView(operand)},
                                             {TensorShapeView(result)});
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
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, j])->([ij]) {j=4, i=2}>", "j=4",
                    iota + "'i', received: 'j'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, k])->([ik]) {i=2, k=4}>", "k=4",
                    iota + "'j', received: 'k'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([j, k])->([jk]) {j=2, k=4}>", "j=2",
                    iota + "'i', received: 'j'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_, j])->([i]) {z_=2, j=4}>",
                    "z_,", "expecting integer after 'z_'. Received: 'z_'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i_1, j])->([i]) {i_1=2, j=4}>",
                    "_1,", "expecting symbol from 'i' to 'z'. Received: '_'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_z_1, j])->([i]) {z_1=2, j=4}>",
                    "z_z", "expecting integer after 'z_'. Received: 'z_z_1'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_0z_, j])->([i]) {z_0=2, j=4}>",
                    "z_0z",
                    "expecting positive integer without leading zeros. "
                    "Received: '0'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([a, j])->([j]) {a=2, j=4}>", "a,",
                    "expecting symbol from 'i' to 'z'. Received: 'a'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_-1, j])->([i]) {i=2, j=4}>",
                    "z_", "expecting integer after 'z_'. Received: 'z_'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([z_ 1, j])->([i]) {i=2, j=4}>",
                    "z_", "expecting integer after 'z_'. Received: 'z_'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([j, z_0])->([jz_0]) {i=4, z_0=2}>",
                    "z_0",
                    "expecting positive integer without leading zeros. "
                    "Received: '0'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([j, z_9223372036854775808])->([j]) {i=4}>", "z_9",
                    "expecting symbol index <=2^63-1. Received: "
                    "'9223372036854775808'");
  // Like the reference, the last 17 indices wrap around (to negative factor
  // indices, which the verifier rejects).
  absl::StatusOr<OpShardingRule> wrapped =
      parseOpShardingRule("<([j, z_9223372036854775807])->([j]) {i=4}>");
  REQUIRE(wrapped.ok());
  CHECK(wrapped->operand_mappings[0].dim_mappings[1].factor_indices[0] < 0);
  // `z_2i` parses (as z_2 then i); only the factor order is wrong.
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([j, z_2i])->([j]) {i=4, z_2=2}>",
                    "z_2=", iota + "'j', received: 'z_2'");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([j, z_2_i])->([j]) {i=4}>", "_i",
                    "expecting symbol from 'i' to 'z'. Received: '_'");
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
      "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduce={j}>", "reduce",
      "expected '>', got 'reduce'");
  CHECK_PARSE_ERROR(parseOpShardingRule,
                    "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} "
                    "need_replication={i} reduction={j}>",
                    "reduction", "expected '>', got 'reduction'");
  CHECK_PARSE_ERROR(
      parseOpShardingRule,
      "<([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={a}>", "a}",
      "expecting symbol from 'i' to 'z'. Received: 'a'");
}

TEST_CASE("parseOpShardingRule: other errors") {
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i, j])->([i]) reduction={jk}>",
                    "jk", "expecting single factor symbol: jk");
  CHECK_PARSE_ERROR(parseOpShardingRule, "<([i])->([i]) {ij=2}>",
                    "ij=", "expecting single factor symbol: ij");
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
  CHECK_PARSE_ERROR(parseManualAxes, R"(["x"])", "[", "expected '{', got '['");
  CHECK_PARSE_ERROR(parseManualAxes, R"({"x":(1)2})", ":",
                    "expected '}', got ':'");
}

TEST_CASE("parseListOfAxisRefLists") {
  CHECK(printed(parseListOfAxisRefLists("[]")) == "[]");
  CHECK(printed(parseListOfAxisRefLists(R"([{}, {"x"}])")) == R"([{}, {"x"}])");
  CHECK(printed(parseListOfAxisRefLists(R"([{}, {"x":(4)2, "z"}])")) ==
        R"([{}, {"x":(4)2, "z"}])");
  CHECK_PARSE_ERROR(parseListOfAxisRefLists, R"([{}, "x"])", "\"x",
                    "expected '{', got string \"x\"");
  CHECK_PARSE_ERROR(parseListOfAxisRefLists, R"({"x"})", "{",
                    "expected '[', got '{'");
}

TEST_CASE("parseAllToAllParamList") {
  CHECK(printed(parseAllToAllParamList("[]")) == "[]");
  for (const char* text : {R"([{"x"}: 0->1])", R"([{"x"}: 0->2, {"y"}: 1->3])",
                           R"([{"y", "x"}: 0->1])"}) {
    CHECK(printed(parseAllToAllParamList(text)) == text);
  }
  absl::StatusOr<AllToAllParamList> params =
      parseAllToAllParamList(R"([{"x":(1)2} : 1 -> 0])");
  REQUIRE(params.ok());
  REQUIRE(params->items.size() == 1);
  CHECK(params->items[0] == AllToAllParam{{AxisRef("x", 1, 2)}, 1, 0});
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
