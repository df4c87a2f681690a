#include "shardkit/rules/collective_rules.h"

#include <catch2/catch.hpp>

#include "shardkit/rules/pointwise_rules.h"
#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::verifiedText;

TEST_CASE("all_gather: the gathered dim has operand and result factors") {
  CHECK(verifiedText(allGatherRule({{2, 2}, {2, 2}}, {{2, 4}, {2, 4}}, 1),
                     {{2, 2}, {2, 2}}, {{2, 4}, {2, 4}}) ==
        "<([i, j], [i, j])->([i, k], [i, k]) {i=2, j=2, k=4} "
        "need_replication={j, k}>");
  // The untouched dims come first, whatever the gathered dim.
  CHECK(
      verifiedText(allGatherRule({{2, 3}}, {{4, 3}}, 0), {{2, 3}}, {{4, 3}}) ==
      "<([j, i])->([k, i]) {i=3, j=2, k=4} need_replication={j, k}>");
  CHECK(!allGatherRule({{2, 2}}, {{2, 4}}, 2).ok());
  CHECK(!allGatherRule({{2, 2}}, {{2, 4}, {2, 4}}, 1).ok());
  CHECK(!allGatherRule({}, {}, 0).ok());
}

TEST_CASE("all_to_all: split dim, then concat dim") {
  CHECK(verifiedText(allToAllRule({{2, 4}, {2, 4}}, {{4, 2}, {4, 2}}, 1, 0),
                     {{2, 4}, {2, 4}}, {{4, 2}, {4, 2}}) ==
        "<([k, i], [k, i])->([l, j], [l, j]) {i=4, j=2, k=2, l=4} "
        "need_replication={i, j, k, l}>");
  CHECK(verifiedText(allToAllRule({{2, 4}, {2, 4}}, {{2, 4}, {2, 4}}, 0, 0),
                     {{2, 4}, {2, 4}}, {{2, 4}, {2, 4}}) ==
        "<([j, i], [j, i])->([k, i], [k, i]) {i=4, j=2, k=2} "
        "need_replication={j, k}>");
  CHECK(!allToAllRule({{2, 4}}, {{4, 2}}, 1, 2).ok());
}

TEST_CASE("reduce_scatter: the scattered dim has two factors") {
  CHECK(verifiedText(reduceScatterRule({{2, 64, 1, 13}}, {{2, 32, 1, 13}}, 1),
                     {{2, 64, 1, 13}}, {{2, 32, 1, 13}}) ==
        "<([i, l, j, k])->([i, m, j, k]) {i=2, j=1, k=13, l=64, m=32} "
        "need_replication={l, m}>");
  CHECK(!reduceScatterRule({{2, 64}}, {{2, 32, 1}}, 1).ok());
}

TEST_CASE("all_reduce and collective_permute are pointwise") {
  CHECK(verifiedText(pointwiseRule({{8, 4}}, {{8, 4}}), {{8, 4}}, {{8, 4}}) ==
        "<([i, j])->([i, j]) {i=8, j=4}>");
}

}  // namespace
}  // namespace shardkit
