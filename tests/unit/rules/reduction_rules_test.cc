#include "shardkit/rules/reduction_rules.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::text;
using testing::verifiedText;

TEST_CASE("reduce: reduced dims are reduction factors of the inputs") {
  CHECK(verifiedText(reduceRule({{2, 64, 13}}, {{2, 13}}, {1}),
                     {{2, 64, 13}, {}}, {{2, 13}}) ==
        "<([i, j, k], [])->([i, k]) {i=2, j=64, k=13} reduction={j}>");
  CHECK(
      verifiedText(reduceRule({{2, 64, 13}, {2, 64, 13}}, {{64}, {64}}, {0, 2}),
                   {{2, 64, 13}, {2, 64, 13}, {}, {}}, {{64}, {64}}) ==
      "<([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} "
      "reduction={i, k}>");
  CHECK(verifiedText(reduceRule({{2, 64, 1, 13}}, {{2, 1, 13}}, {1}),
                     {{2, 64, 1, 13}, {}}, {{2, 1, 13}}) ==
        "<([i, j, k, l], [])->([i, k, l]) {i=2, j=64, k=1, l=13} "
        "reduction={j}>");
  CHECK(text(reduceRule({{2, 64, 13}}, {{2, 12}}, {1})) ==
        "error: reduce: result dim 1 has size 12, expected 13");
  CHECK(!reduceRule({{2, 64}}, {{2, 64}}, {1}).ok());
  CHECK(!reduceRule({{2, 64}}, {}, {1}).ok());
  CHECK(!reduceRule({{2, 64}, {2, 63}}, {{2}, {2}}, {1}).ok());
}

TEST_CASE("reduce_window: windowed or padded dims are permutations") {
  WindowPadding padding{{{0, 0}, {2, -2}, {0, 0}}};
  const Shape in = {48, 48, 3};
  const Shape out = {16, 48, 3};
  CHECK(verifiedText(reduceWindowRule({in, in}, {out, out}, padding),
                     {in, in, {}, {}}, {out, out}) ==
        "<([i, j, k], [i, j, k], [], [])->([i, j, k], [i, j, k]) {i=16, j=48, "
        "k=3} permutation={i, j}>");
  CHECK(
      verifiedText(reduceWindowRule({{8, 16}}, {{8, 16}}, {{{-1, 1}, {2, -2}}}),
                   {{8, 16}, {}}, {{8, 16}}) ==
      "<([i, j], [])->([i, j]) {i=8, j=16} permutation={i, j}>");
  CHECK(verifiedText(reduceWindowRule({{8, 16}}, {{8, 16}}, {{{0, 0}, {0, 0}}}),
                     {{8, 16}, {}},
                     {{8, 16}}) == "<([i, j], [])->([i, j]) {i=8, j=16}>");
  // The size-1 factor of the last dim maps only to the size-1 result dims.
  CHECK(text(reduceWindowRule({in, in}, {{16, 48, 1}, {16, 48, 1}},
                              {{{0, 0}, {2, -2}, {0, 0}}},
                              /*conservative=*/true)) ==
        "<([i, j, l], [i, j, m], [], [])->([i, j, k], [i, j, k]) {i=16, j=48, "
        "k=1, l=1, m=1} permutation={i, j, k} blocked_propagation={i, j, "
        "k}>");
  CHECK(!reduceWindowRule({in}, {out}, {{{0, 0}}}).ok());
}

TEST_CASE("select_and_scatter: windowed dims split source and operand") {
  const Shape operand = {10, 24, 24, 64};
  const Shape source = {9, 12, 12, 64};
  WindowPadding padding{{{-1, 0}, {0, 0}, {0, 0}, {0, 0}}};
  CHECK(verifiedText(selectAndScatterRule(operand, source, operand, padding),
                     {operand, source, {}}, {operand}) ==
        "<([j, l, n, o], [i, k, m, o], [])->([j, l, n, o]) {i=9, j=10, k=12, "
        "l=24, m=12, n=24, o=64} need_replication={i, k, m} permutation={j, "
        "l, n}>");
  CHECK(text(selectAndScatterRule({10, 24}, {10, 12}, {10, 24}, {}, true)) ==
        "<([i, k], [i, j], [])->([i, k]) {i=10, j=12, k=24} "
        "need_replication={j} permutation={k} blocked_propagation={j, k}>");
  CHECK(!selectAndScatterRule({10, 24}, {10}, {10, 24}).ok());
}

}  // namespace
}  // namespace shardkit
