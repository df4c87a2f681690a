// Single-op cases of the basic strategy: each feeds one op's current
// shardings through propagateOpShardings and checks every sharding after
// the step. Shapes, meshes and expected shardings follow what the
// reference's basic propagation produces for the same op.
#include <catch2/catch.hpp>

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
const char* kIdentity = "<([i, j])->([i, j]) {i=8, j=8}>";
const char* kDot =
    "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>";

TEST_CASE("basic: elementwise op spreads an operand's sharding") {
  OpCase op{{kMeshAB}, kAdd, {R"(<@mesh, [{"a"}, {"b"}]>)", ""}, {""}};
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b"}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)"});
}

TEST_CASE("basic: dot_general propagates along batch and contracting dims") {
  OpCase op{{kMeshAB}, kDot, {R"(<@mesh, [{"a", ?}, {"b", ?}]>)", ""}, {""}};
  CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {"b", ?}]>)",
                            R"(<@mesh, [{"b", ?}, {?}]>)",
                            R"(<@mesh, [{"a", ?}, {?}]>)"});
}

TEST_CASE("basic: a closed result dim takes nothing, an open one does") {
  OpCase op{{kMeshAB},
            kDot,
            {R"(<@mesh, [{"a"}, {}]>)", R"(<@mesh, [{}, {"b"}]>)"},
            {R"(<@mesh, [{}, {?}]>)"}};
  CHECK(op.run()[2] == R"(<@mesh, [{}, {"b", ?}]>)");
}

TEST_CASE("basic: size-0 and size-1 dimensions") {
  SECTION("a size-0 factor takes axes like a divisible one") {
    // `i` is not minor-most in the operand's dimension: 0 % 4 == 0 lets
    // "a", "b" through, as the reference's divisibility check does.
    OpCase op{{kMeshAB},
              "<([ij])->([i, j]) {i=0, j=4}>",
              {""},
              {R"(<@mesh, [{"a", "b"}, {}]>)"}};
    CHECK(op.run()[0] == R"(<@mesh, [{"a", "b", ?}]>)");
  }
  SECTION("a size-0 factor with nothing to take stays empty") {
    OpCase op{{kMeshAB},
              "<([i, j], [i, j])->([i, j]) {i=8, j=0}>",
              {R"(<@mesh, [{"a"}, {}]>)", R"(<@mesh, [{"a"}, {}]>)"},
              {""}};
    CHECK(op.run()[2] == R"(<@mesh, [{"a", ?}, {?}]>)");
  }
  SECTION("a size-1 axis still propagates along a size-0 factor") {
    OpCase op{{{"mesh", R"(<["a"=1, "b"=2, "c"=1]>)"}},
              "<([i, j], [i, j])->([i, j]) {i=8, j=0}>",
              {R"(<@mesh, [{}, {"a"}]>)", R"(<@mesh, [{}, {"a"}]>)"},
              {""}};
    CHECK(op.run()[2] == R"(<@mesh, [{?}, {"a", ?}]>)");
  }
  SECTION("size-1 axes ride along with the others") {
    OpCase op{{{"mesh", R"(<["a"=1, "b"=2, "c"=1, "d"=2]>)"}},
              "<([i, j], [i, j])->([i, j]) {i=4, j=8}>",
              {R"(<@mesh, [{?}, {"a", "b", "c"}]>)",
               R"(<@mesh, [{?}, {"a", "b", "c"}]>)"},
              {R"(<@mesh, [{"d"}, {?}]>)"}};
    CHECK(op.run() == Strings{R"(<@mesh, [{"d", ?}, {"a", "b", "c"}]>)",
                              R"(<@mesh, [{"d", ?}, {"a", "b", "c"}]>)",
                              R"(<@mesh, [{"d"}, {"a", "b", "c", ?}]>)"});
  }
}

TEST_CASE("basic: multi-result op with scalar operands") {
  OpCase op{
      {kMeshAB},
      "<([i, j, k], [i, j, k], [], [])->([i, k], [i, k]) "
      "{i=4, j=64, k=8} reduction={j}>",
      {R"(<@mesh, [{}, {}, {"b"}]>)", R"(<@mesh, [{}, {}, {"b"}]>)", "", ""},
      {"", ""}};
  Strings after = op.run();
  CHECK(after[2] == "");
  CHECK(after[3] == "");
  CHECK(after[4] == R"(<@mesh, [{?}, {"b", ?}]>)");
  CHECK(after[5] == R"(<@mesh, [{?}, {"b", ?}]>)");
}

TEST_CASE("basic: direction of a propagation barrier") {
  OpCase op{{kMeshABC},
            kIdentity,
            {R"(<@mesh, [{"a", ?}, {"c", ?}]>)"},
            {R"(<@mesh, [{"a", "b", ?}, {?}]>)"}};
  SECTION("BACKWARD grows the operand from the result only") {
    op.options.direction = PropagationDirection::kBackward;
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", "b", ?}, {"c", ?}]>)",
                              R"(<@mesh, [{"a", "b", ?}, {?}]>)"});
  }
  SECTION("FORWARD grows the result from the operand only") {
    op.options.direction = PropagationDirection::kForward;
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {"c", ?}]>)",
                              R"(<@mesh, [{"a", "b", ?}, {"c", ?}]>)"});
  }
  SECTION("NONE changes nothing") {
    op.options.direction = PropagationDirection::kNone;
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {"c", ?}]>)",
                              R"(<@mesh, [{"a", "b", ?}, {?}]>)"});
  }
  SECTION("BACKWARD with no result sharding changes nothing") {
    op.results = {""};
    op.options.direction = PropagationDirection::kBackward;
    CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {"c", ?}]>)", ""});
  }
}

TEST_CASE("basic: the longest common prefix of the operands propagates") {
  SECTION("one operand extends the other") {
    OpCase op{{kMeshAB},
              kAdd,
              {R"(<@mesh, [{"b", "a"}, {}]>)", R"(<@mesh, [{"b", ?}, {}]>)"},
              {""}};
    CHECK(op.run() == Strings{R"(<@mesh, [{"b", "a"}, {}]>)",
                              R"(<@mesh, [{"b", "a", ?}, {}]>)",
                              R"(<@mesh, [{"b", "a", ?}, {?}]>)"});
  }
  SECTION("they agree on a prefix only") {
    OpCase op{{kMeshABC},
              kAdd,
              {R"(<@mesh, [{"b", "a"}, {}]>)", R"(<@mesh, [{"b", "c"}, {}]>)"},
              {""}};
    CHECK(op.run()[2] == R"(<@mesh, [{"b", ?}, {?}]>)");
  }
  SECTION("they agree on nothing") {
    OpCase op{{kMeshABC},
              kAdd,
              {R"(<@mesh, [{"b", "a"}, {}]>)", R"(<@mesh, [{"a", "b"}, {}]>)"},
              {""}};
    CHECK(op.run()[2] == "");
  }
}

TEST_CASE("basic: an axis used by another factor is cut off") {
  OpCase op{{kMeshAB},
            kAdd,
            {R"(<@mesh, [{"a", "b"}, {}]>)", ""},
            {R"(<@mesh, [{?}, {"b", ?}]>)"}};
  CHECK(op.run() == Strings{R"(<@mesh, [{"a", "b"}, {}]>)",
                            R"(<@mesh, [{"a", ?}, {?}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)"});
}

TEST_CASE("basic: an explicitly replicated axis blocks the factor") {
  OpCase op{{kMeshAB},
            kAdd,
            {R"(<@mesh, [{"a", "b"}, {}]>)",
             R"(<@mesh, [{?}, {?}], replicated={"a"}>)"},
            {R"(<@mesh, [{?}, {"b", ?}]>)"}};
  CHECK(op.run() == Strings{R"(<@mesh, [{"a", "b"}, {}]>)",
                            R"(<@mesh, [{?}, {?}], replicated={"a"}>)",
                            R"(<@mesh, [{?}, {"b", ?}]>)"});
}

TEST_CASE("basic: a full axis meets a sub-axis used by another factor") {
  OpCase op{{{"mesh", R"(<["a"=16, "b"=2]>)"}},
            kAdd,
            {R"(<@mesh, [{"a", ?}, {?}]>)",
             R"(<@mesh, [{"a":(1)2, ?}, {"a":(4)2, ?}]>)"},
            {R"(<@mesh, [{?}, {"b", ?}]>)"}};
  CHECK(op.run() == Strings{R"(<@mesh, [{"a", ?}, {?}]>)",
                            R"(<@mesh, [{"a":(1)4, ?}, {"a":(4)2, ?}]>)",
                            R"(<@mesh, [{"a":(1)4, ?}, {"b", ?}]>)"});
}

TEST_CASE("basic: sub-axes of incompatible splits can't co-exist") {
  OpCase op{{{"mesh", R"(<["a"=6]>)"}},
            "<([i, j])->([i, j]) {i=2, j=2}>",
            {R"(<@mesh, [{"a":(1)2}, {}]>)"},
            {R"(<@mesh, [{?}, {"a":(3)2, ?}]>)"}};
  CHECK(op.run() == Strings{R"(<@mesh, [{"a":(1)2}, {}]>)",
                            R"(<@mesh, [{?}, {"a":(3)2, ?}]>)"});
}

TEST_CASE("basic: non-divisible axes") {
  SECTION("a single factor may be sharded non-divisibly") {
    OpCase op{{{"mesh", R"(<["a"=3]>)"}},
              "<([i, j], [i, j])->([i, j]) {i=2, j=4}>",
              {R"(<@mesh, [{}, {"a"}]>)", R"(<@mesh, [{}, {"a"}]>)"},
              {""}};
    CHECK(op.run()[2] == R"(<@mesh, [{?}, {"a", ?}]>)");
  }
  SECTION("an axis larger than the factor") {
    OpCase op{{{"mesh", R"(<["a"=4, "b"=2]>)"}},
              "<([i, j], [i, j])->([i, j]) {i=2, j=4}>",
              {R"(<@mesh, [{"a"}, {}]>)", R"(<@mesh, [{"a"}, {}]>)"},
              {""}};
    CHECK(op.run()[2] == R"(<@mesh, [{"a", ?}, {?}]>)");
  }
}

TEST_CASE("basic: blocked factors don't propagate, need-replication ones do") {
  OpCase op{{kMeshABC},
            "<([i, j, k])->([i, j, k]) {i=8, j=8, k=8} need_replication={j, "
            "k} blocked_propagation={i, k}, custom>",
            {R"(<@mesh, [{"a"}, {"b"}, {"c"}]>)"},
            {""}};
  CHECK(op.run()[1] == R"(<@mesh, [{?}, {"b", ?}, {?}]>)");
}

TEST_CASE("basic: per-factor directions restrict single factors") {
  OpCase op{{kMeshAB}, kAdd, {R"(<@mesh, [{"a"}, {"b"}]>)", ""}, {""}};
  std::vector<PropagationDirection> directions = {PropagationDirection::kBoth,
                                                  PropagationDirection::kNone};
  op.options.factor_directions = directions;
  CHECK(op.run()[2] == R"(<@mesh, [{"a", ?}, {?}]>)");
}

TEST_CASE("basic: conservative propagation never splits an axis") {
  OpCase op{{{"mesh", R"(<["a"=4, "b"=2]>)"}},
            "<([ij])->([i, j]) {i=2, j=4}>",
            {R"(<@mesh, [{"a"}]>)"},
            {""}};
  CHECK(op.run()[1] == R"(<@mesh, [{"a":(1)2, ?}, {"a":(2)2, ?}]>)");
  op.options.conservative = true;
  CHECK(op.run()[1] == "");
}

TEST_CASE("basic: malformed input is reported, not propagated") {
  MeshTable table;
  table.add("mesh", testing::parseMeshOrDie(R"(<["a"=2]>)"));
  OpShardingRule rule = testing::parseRuleOrDie(kIdentity);
  TensorSharding operand = testing::parseShardingOrDie(R"(<@mesh, [{"a"}]>)");
  const TensorSharding* operands[] = {&operand};
  const TensorSharding* results[] = {nullptr};
  absl::StatusOr<PropagateOpResult> rank =
      propagateOpShardings({operands, results}, rule, table);
  CHECK_FALSE(rank.ok());
  operand = testing::parseShardingOrDie(R"(<@mesh, [{"a"}, {}]>)");
  rule.blocked_propagation_factors = {7};
  CHECK_FALSE(propagateOpShardings({operands, results}, rule, table).ok());
  rule.blocked_propagation_factors = {};
  std::vector<PropagationDirection> one = {PropagationDirection::kBoth};
  PropagateOpOptions options;
  options.factor_directions = one;
  CHECK_FALSE(
      propagateOpShardings({operands, results}, rule, table, options).ok());
  CHECK(propagateOpShardings({operands, results}, rule, table).ok());
}

}  // namespace
}  // namespace shardkit
