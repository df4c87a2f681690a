// Single-op cases of the aggressive strategy: conflicts the basic strategy
// leaves alone are resolved per tensor and by factor preference.
#include <catch2/catch.hpp>

#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::OpCase;
using Strings = std::vector<std::string>;

const std::pair<std::string, std::string> kMeshAB = {"mesh",
                                                     R"(<["a"=2, "b"=2]>)"};
const std::pair<std::string, std::string> kMeshABC = {
    "mesh", R"(<["a"=2, "b"=2, "c"=2]>)"};
const char* kAdd = "<([i, j], [i, j])->([i, j]) {i=8, j=8}>";
const char* kAdd1d = "<([i], [i])->([i]) {i=8}>";
const char* kDot = "<([i, k], [k, j])->([i, j]) {i=8, j=8, k=8} reduction={k}>";
// dot_general with a batching dim: lhs [b, m, k], rhs [b, k, n].
const char* kBatchDot =
    "<([i, j, l], [i, l, k])->([i, j, k]) {i=2, j=8, k=16, l=4} "
    "reduction={l}>";

PropagateOpOptions aggressive(bool is_elementwise) {
  PropagateOpOptions options;
  options.strategy = &aggressiveFactorPropagation();
  options.is_elementwise = is_elementwise;
  return options;
}

TEST_CASE("aggressive: same as basic when nothing conflicts") {
  OpCase op({kMeshAB}, kAdd, {R"(<@mesh, [{"a"}, {"b"}]>)", ""}, {""},
            aggressive(true));
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b"}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)"});
}

TEST_CASE("aggressive: one axis on different factors is no conflict") {
  SECTION("two non-contracting dims") {
    OpCase op({kMeshAB},
              "<([i, k], [j, k])->([i, j]) {i=256, j=128, k=512} "
              "reduction={k}>",
              {R"(<@mesh, [{"a", ?}, {?}]>)", ""},
              {R"(<@mesh, [{?}, {"a", ?}]>)"}, aggressive(false));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {?}]>)",
                              R"(<@mesh, [{"a", ?}, {?}]>)",
                              R"(<@mesh, [{?}, {"a", ?}]>)"});
  }
  SECTION("contracting and non-contracting dims") {
    OpCase op(
        {kMeshABC},
        "<([i, k], [j, k])->([i, j]) {i=256, j=128, k=512} "
        "reduction={k}>",
        {R"(<@mesh, [{"a"}, {"b", "c"}]>)", R"(<@mesh, [{"c", "b"}, {"a"}]>)"},
        {""}, aggressive(false));
    CHECK(op.run()[2] == R"(<@mesh, [{"a", ?}, {"c", "b", ?}]>)");
  }
}

TEST_CASE("aggressive: a closed dim no longer stops the other tensors") {
  OpCase op(
      {kMeshABC}, kAdd,
      {R"(<@mesh, [{"a", ?}, {"b"}]>)", R"(<@mesh, [{}, {"b", "c", ?}]>)"},
      {""}, aggressive(true));
  CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {"b"}]>)",
                            R"(<@mesh, [{}, {"b", "c", ?}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", "c", ?}]>)"});
}

TEST_CASE("aggressive: two different axes on one factor still conflict") {
  SECTION("nothing agrees") {
    OpCase op({kMeshABC}, kAdd,
              {R"(<@mesh, [{"a", ?}, {}]>)", R"(<@mesh, [{"b", ?}, {}]>)"},
              {""}, aggressive(true));
    CHECK(op.run()[2] == "");
  }
  SECTION("the agreeing factor still propagates") {
    OpCase op(
        {kMeshABC}, kAdd,
        {R"(<@mesh, [{"a"}, {"b"}]>)", R"(<@mesh, [{}, {"a", "b", "c"}]>)"},
        {""}, aggressive(true));
    CHECK(op.run()[2] == R"(<@mesh, [{"a", ?}, {?}]>)");
  }
  SECTION("real and fake conflicts together") {
    OpCase op(
        {kMeshABC}, kAdd,
        {R"(<@mesh, [{"a", ?}, {?}]>)", R"(<@mesh, [{"b", ?}, {"a", ?}]>)"},
        {""}, aggressive(true));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {?}]>)",
                              R"(<@mesh, [{"b", ?}, {"a", ?}]>)",
                              R"(<@mesh, [{?}, {"a", ?}]>)"});
  }
}

TEST_CASE("aggressive: conflicts across factors") {
  SECTION("same tensor sizes: the first source tensor wins") {
    OpCase op({kMeshABC}, kAdd,
              {R"(<@mesh, [{"a"}, {?}]>)", R"(<@mesh, [{?}, {"a"}]>)"}, {""},
              aggressive(true));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {?}]>)",
                              R"(<@mesh, [{?}, {"a"}]>)",
                              R"(<@mesh, [{"a", ?}, {?}]>)"});
  }
  SECTION("the larger source tensor wins") {
    OpCase op(
        {kMeshABC},
        "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}>",
        {R"(<@mesh, [{"a", "b"}, {?}]>)", R"(<@mesh, [{?}, {"a", "c"}]>)"},
        {""}, aggressive(false));
    CHECK(op.run()[2] == R"(<@mesh, [{?}, {"a", "c", ?}]>)");
  }
  SECTION("partial conflict with a closed result") {
    OpCase op({kMeshABC}, kBatchDot, {R"(<@mesh, [{"a"}, {"b"}, {}]>)", ""},
              {R"(<@mesh, [{"a", "b"}, {}, {}]>)"}, aggressive(false));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b"}, {}]>)",
                              R"(<@mesh, [{"a", "b", ?}, {?}, {?}]>)",
                              R"(<@mesh, [{"a", "b"}, {}, {}]>)"});
  }
  SECTION("several conflicts resolved in preference order") {
    OpCase op({{"mesh", R"(<["a"=2, "b"=2, "c"=2, "d"=2]>)"}}, kBatchDot,
              {R"(<@mesh, [{?}, {"a", "b"}, {?}]>)",
               R"(<@mesh, [{?}, {"d", "c"}, {"b", "a"}]>)"},
              {R"(<@mesh, [{"d"}, {?}, {?}]>)"}, aggressive(false));
    CHECK(op.run() == Strings{R"(<@mesh, [{"d", ?}, {"a", "b"}, {?}]>)",
                              R"(<@mesh, [{?}, {"d", "c"}, {"b", "a"}]>)",
                              R"(<@mesh, [{"d"}, {?}, {"b", "a", ?}]>)"});
  }
}

TEST_CASE("aggressive: preference between conflicting factors") {
  SECTION("elementwise: the most sharded factor") {
    OpCase op({kMeshAB}, kAdd,
              {R"(<@mesh, [{}, {"a"}]>)", R"(<@mesh, [{"b", "a"}, {}]>)"}, {""},
              aggressive(true));
    CHECK(op.run()[2] == R"(<@mesh, [{"b", "a", ?}, {?}]>)");
  }
  SECTION("elementwise: the most sharded factor, by size") {
    OpCase op({{"mesh", R"(<["a"=2, "b"=2, "c"=8]>)"}}, kAdd,
              {R"(<@mesh, [{}, {"a", "b"}]>)", R"(<@mesh, [{"a", "c"}, {}]>)"},
              {""}, aggressive(true));
    CHECK(op.run()[2] == R"(<@mesh, [{"a", "c", ?}, {?}]>)");
  }
  SECTION("elementwise: a result can be the source") {
    OpCase op({{"mesh", R"(<["a"=2, "b"=2, "c"=8]>)"}}, kAdd,
              {R"(<@mesh, [{}, {"a", "b"}]>)", R"(<@mesh, [{?}, {?}]>)"},
              {R"(<@mesh, [{"a", "c"}, {}]>)"}, aggressive(true));
    CHECK(op.run()[1] == R"(<@mesh, [{"a", "c", ?}, {?}]>)");
  }
  SECTION("not elementwise: the lhs factor") {
    OpCase op({kMeshAB}, kDot,
              {R"(<@mesh, [{"a"}, {}]>)", R"(<@mesh, [{}, {"b", "a"}]>)"}, {""},
              aggressive(false));
    CHECK(op.run()[2] == R"(<@mesh, [{"a", ?}, {"b", ?}]>)");
  }
}

TEST_CASE("aggressive: sideways propagation between operands") {
  SECTION("not into a closed empty result, nor sideways") {
    OpCase op({kMeshAB}, kAdd1d, {R"(<@mesh, [{"a"}]>)", ""},
              {R"(<@mesh, [{}]>)"}, aggressive(true));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a"}]>)", "", R"(<@mesh, [{}]>)"});
  }
  SECTION("through an open result") {
    OpCase op({kMeshAB}, kAdd1d,
              {R"(<@mesh, [{"a", "b"}]>)", R"(<@mesh, [{?}]>)"},
              {R"(<@mesh, [{?}]>)"}, aggressive(true));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", "b"}]>)",
                              R"(<@mesh, [{"a", "b", ?}]>)",
                              R"(<@mesh, [{"a", "b", ?}]>)"});
  }
  SECTION("up to what a closed result has") {
    OpCase op({{"mesh", R"(<["a"=4]>)"}}, kAdd1d,
              {R"(<@mesh, [{"a"}]>)", R"(<@mesh, [{?}]>)"},
              {R"(<@mesh, [{"a":(1)2}]>)"}, aggressive(true));
    CHECK(op.run()[1] == R"(<@mesh, [{"a":(1)2, ?}]>)");
    op.results = {R"(<@mesh, [{"a"}]>)"};
    CHECK(op.run()[1] == R"(<@mesh, [{"a", ?}]>)");
  }
  SECTION("an op that isn't elementwise propagates sideways anyway") {
    OpCase op({kMeshAB}, "<([i], [i])->([i], [i]) {i=8}, custom>",
              {R"(<@mesh, [{"a"}]>)", R"(<@mesh, [{?}]>)"},
              {R"(<@mesh, [{}]>)", R"(<@mesh, [{?}]>)"}, aggressive(false));
    CHECK(op.run() == Strings{R"(<@mesh, [{"a"}]>)", R"(<@mesh, [{"a", ?}]>)",
                              R"(<@mesh, [{}]>)", R"(<@mesh, [{"a", ?}]>)"});
  }
}

TEST_CASE("aggressive: unreduced axes block propagation into a tensor") {
  OpCase dot({kMeshAB},
             "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>",
             {R"(<@mesh, [{"a"}, {"b"}]>)", ""},
             {R"(<@mesh, [{?}, {?}], unreduced={"b"}>)"}, aggressive(false));
  CHECK(dot.run() == Strings{R"(<@mesh, [{"a"}, {"b"}]>)",
                             R"(<@mesh, [{"b", ?}, {?}]>)",
                             R"(<@mesh, [{"a", ?}, {?}], unreduced={"b"}>)"});
  const char* dot_result = R"(<@mesh, [{"a", ?}, {?}], unreduced={"b"}>)";
  OpCase add({kMeshAB}, "<([i, j], [i, j])->([i, j]) {i=8, j=16}>",
             {dot_result, dot_result}, {R"(<@mesh, [{?}, {"b", ?}]>)"},
             aggressive(true));
  CHECK(add.run() ==
        Strings{dot_result, dot_result, R"(<@mesh, [{"a", ?}, {"b", ?}]>)"});
}

// The example walked through in docs/propagation.md.
TEST_CASE("the docs example: basic and aggressive on one dot") {
  OpCase op(
      {kMeshABC},
      "<([i, k], [k, j])->([i, j]) {i=8, j=32, k=16} reduction={k}>",
      {R"(<@mesh, [{"a"}, {"b", ?}]>)", R"(<@mesh, [{?}, {"c", "a", ?}]>)"},
      {""});
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b", ?}]>)",
                            R"(<@mesh, [{"b", ?}, {"c", "a", ?}]>)",
                            R"(<@mesh, [{?}, {"c", ?}]>)"});
  op.options = aggressive(false);
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b", ?}]>)",
                            R"(<@mesh, [{"b", ?}, {"c", "a", ?}]>)",
                            R"(<@mesh, [{?}, {"c", "a", ?}]>)"});
}

}  // namespace
}  // namespace shardkit
