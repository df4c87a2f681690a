// Op priorities and user priorities (the reference's docs/propagation.md and
// docs/sharding_representation.md).
#include "shardkit/factor_propagation/priorities.h"

#include <catch2/catch.hpp>

#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::OpCase;
using testing::parseRuleOrDie;
using testing::parseShardingOrDie;
using Strings = std::vector<std::string>;
using D = PropagationDirection;

TEST_CASE("op priority rounds accumulate") {
  OpShardingRule dot = parseRuleOrDie(
      "<([i, k], [k, j])->([i, j]) {i=8, j=8, k=8} reduction={k}>");
  const int64_t k = 2;
  using K = OpPriorityKind;
  // Round 0: pass-through ops whose operands have no other uses.
  CHECK(opPriorityDirection(0, K::kPassThrough, &dot, k) == D::kBoth);
  CHECK(opPriorityDirection(0, K::kPassThrough, &dot, k, true) == D::kNone);
  CHECK(opPriorityDirection(0, K::kForwardPassThrough, &dot, 0) == D::kForward);
  CHECK(opPriorityDirection(0, K::kForwardPassThrough, &dot, 0, true) ==
        D::kNone);
  CHECK(opPriorityDirection(0, K::kOther, &dot, 0) == D::kNone);
  CHECK(opPriorityDirection(0, K::kBroadcast, &dot, 0) == D::kNone);
  // Round 1: whatever the uses.
  CHECK(opPriorityDirection(1, K::kPassThrough, &dot, k, true) == D::kBoth);
  CHECK(opPriorityDirection(1, K::kForwardPassThrough, &dot, 0, true) ==
        D::kForward);
  CHECK(opPriorityDirection(1, K::kOther, &dot, 0) == D::kNone);
  // Round 2 adds the pass-through factors of any op, broadcasts backward.
  CHECK(opPriorityDirection(2, K::kOther, &dot, 0) == D::kBoth);
  CHECK(opPriorityDirection(2, K::kOther, &dot, k) == D::kNone);
  CHECK(opPriorityDirection(2, K::kForwardPassThrough, &dot, k) == D::kForward);
  CHECK(opPriorityDirection(2, K::kOther, nullptr, k) == D::kBoth);
  CHECK(opPriorityDirection(2, K::kBroadcast, nullptr, 0) == D::kBackward);
  // Round 3 adds every factor; broadcasts still only backward.
  CHECK(opPriorityDirection(3, K::kOther, &dot, k) == D::kBoth);
  CHECK(opPriorityDirection(3, K::kBroadcast, &dot, k) == D::kBackward);
  // Round 4 allows everything.
  CHECK(opPriorityDirection(4, K::kBroadcast, &dot, k) == D::kBoth);
  CHECK(kNumOpPriorityRounds == 5);
}

TEST_CASE("op priority directions restrict the per-op step") {
  OpShardingRule dot = parseRuleOrDie(
      "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>");
  std::vector<D> directions(3);
  for (int64_t f = 0; f < 3; ++f) {
    directions[f] = opPriorityDirection(2, OpPriorityKind::kOther, &dot, f);
  }
  OpCase op({{"mesh", R"(<["a"=2, "b"=2]>)"}}, toString(dot),
            {R"(<@mesh, [{"a"}, {"b"}]>)", ""}, {""});
  op.options.factor_directions = directions;
  // The contracting (reduction) factor waits for the last round.
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b"}]>)", "",
                            R"(<@mesh, [{"a", ?}, {?}]>)"});
}

TEST_CASE("user priority rounds and dropping priorities") {
  TensorSharding a = parseShardingOrDie(R"(<@m, [{"x"}p3, {?}p1]>)");
  TensorSharding b = parseShardingOrDie(R"(<@m, [{"y"}]>)");
  const TensorSharding* shardings[] = {&a, nullptr, &b};
  CHECK(userPriorityRounds(shardings) == std::vector<int64_t>{0, 1, 3});
  CHECK(dropPriorities(a));
  CHECK(toString(a) == R"(<@m, [{"x"}, {?}]>)");
  CHECK_FALSE(dropPriorities(b));
}

const std::pair<std::string, std::string> kMesh = {
    "mesh", R"(<["a"=2, "b"=2, "c"=2]>)"};
const char* kAdd = "<([i, j], [i, j])->([i, j]) {i=8, j=8}>";

TEST_CASE("a dimension of a later round neither gives nor takes") {
  OpCase op({kMesh}, kAdd, {R"(<@mesh, [{"a"}, {"b"}p1]>)", ""}, {""});
  op.options.priority_round = 0;
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b"}p1]>)",
                            R"(<@mesh, [{"a", ?}, {?}]>)",
                            R"(<@mesh, [{"a", ?}, {?}]>)"});
  // In round 1 it does; its own sharding isn't rewritten.
  op.operands[1] = R"(<@mesh, [{"a", ?}, {?}]>)";
  op.results[0] = R"(<@mesh, [{"a", ?}, {?}]>)";
  op.options.priority_round = 1;
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}, {"b"}p1]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)",
                            R"(<@mesh, [{"a", ?}, {"b", ?}]>)"});
}

TEST_CASE("a later-round dimension's axes are replicated until its round") {
  OpCase op({kMesh}, kAdd, {R"(<@mesh, [{"a"}p1, {?}]>)", ""},
            {R"(<@mesh, [{?}, {"a", ?}]>)"});
  op.options.priority_round = 0;
  // "a" may not shard the operand's other dimension either, and under the
  // basic strategy that conflict stops "a" for every tensor.
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}p1, {?}]>)", "",
                            R"(<@mesh, [{?}, {"a", ?}]>)"});
}

TEST_CASE("an updated tensor keeps its later-round dimensions") {
  OpCase op({kMesh}, kAdd,
            {R"(<@mesh, [{"a"}p1, {?}], replicated={"c"}>)",
             R"(<@mesh, [{?}, {"b", ?}]>)"},
            {""});
  op.options.priority_round = 0;
  CHECK(op.run() == Strings{R"(<@mesh, [{"a"}p1, {"b", ?}], replicated={"c"}>)",
                            R"(<@mesh, [{?}, {"b", ?}]>)",
                            R"(<@mesh, [{?}, {"b", ?}]>)"});
}

TEST_CASE("only a dropped priority is no update") {
  OpCase op({kMesh}, kAdd,
            {R"(<@mesh, [{"a"}p0, {?}]>)", R"(<@mesh, [{"a", ?}, {?}]>)"},
            {R"(<@mesh, [{"a", ?}, {?}]>)"});
  op.options.priority_round = 0;
  CHECK(op.run()[0] == R"(<@mesh, [{"a"}p0, {?}]>)");
}

TEST_CASE("a lower-priority dim is further sharded in its round") {
  OpCase op({kMesh}, kAdd, {R"(<@mesh, [{"b", ?}p1, {}]>)", ""},
            {R"(<@mesh, [{"b", "a", ?}, {}]>)"});
  op.options.strategy = &aggressiveFactorPropagation();
  op.options.is_elementwise = true;
  op.options.priority_round = 0;
  Strings round0 = op.run();
  CHECK(round0 == Strings{R"(<@mesh, [{"b", ?}p1, {}]>)",
                          R"(<@mesh, [{"b", "a", ?}, {?}]>)",
                          R"(<@mesh, [{"b", "a", ?}, {}]>)"});
  op.operands[1] = round0[1];
  op.options.priority_round = 1;
  CHECK(op.run()[0] == R"(<@mesh, [{"b", "a", ?}, {}]>)");
}

}  // namespace
}  // namespace shardkit
