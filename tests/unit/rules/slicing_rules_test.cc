#include "shardkit/rules/slicing_rules.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::text;
using testing::verifiedText;

std::string concat(const std::vector<Shape>& operands, const Shape& out,
                   int64_t dim,
                   const std::vector<ConcatOperandSource>& sources = {}) {
  return verifiedText(concatenateRule(operands, out, dim, sources), operands,
                      {out});
}

TEST_CASE("concatenate: the concat dim needs replication by default") {
  CHECK(concat({{4, 1, 256}, {4, 1, 256}, {4, 1, 256}}, {4, 3, 256}, 1) ==
        "<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=3, k=256} "
        "need_replication={j}>");
  CHECK(concat({{4, 3, 256}, {4, 5, 256}}, {4, 8, 256}, 1) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=8, k=256} "
        "need_replication={j}>");
  CHECK(concat({{4, 16, 256}, {4, 16, 256}}, {4, 32, 256}, 1) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=32, k=256} "
        "need_replication={j}>");
  CHECK(concat({{4, 32, 256}, {4, 16, 256}}, {4, 48, 256}, 1) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=48, k=256} "
        "need_replication={j}>");
  CHECK(concat({{4, 32, 256}, {4, 48, 256}}, {4, 80, 256}, 1) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} "
        "need_replication={j}>");
}

TEST_CASE("concatenate: pieces sliced out of tensors need permutation") {
  const ConcatOperandSource slice_of_a{true, 0};
  const ConcatOperandSource slice_of_b{true, 1};
  const ConcatOperandSource a{false, 0};
  const ConcatOperandSource b{false, 1};
  // concat(slice(a), slice(b))
  CHECK(concat({{4, 32, 256}, {4, 48, 256}}, {4, 80, 256}, 1,
               {slice_of_a, slice_of_b}) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} "
        "permutation={j}>");
  // concat(slice(a), a, slice(a))
  CHECK(concat({{4, 32, 256}, {4, 40, 256}, {4, 24, 256}}, {4, 96, 256}, 1,
               {slice_of_a, a, slice_of_a}) ==
        "<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} "
        "permutation={j}>");
  // concat(slice(a), b)
  CHECK(
      concat({{4, 32, 256}, {4, 60, 256}}, {4, 92, 256}, 1, {slice_of_a, b}) ==
      "<([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=92, k=256} "
      "need_replication={j}>");
  // concat(slice(a), a, slice(b))
  CHECK(concat({{4, 32, 256}, {4, 40, 256}, {4, 24, 256}}, {4, 96, 256}, 1,
               {slice_of_a, a, slice_of_b}) ==
        "<([i, j, k], [i, j, k], [i, j, k])->([i, j, k]) {i=4, j=96, k=256} "
        "need_replication={j}>");
  // concat(a, a, a): repeating a tensor is not a permutation.
  CHECK(concat({{4, 64}, {4, 64}, {4, 64}}, {12, 64}, 0, {a, a, a}) ==
        "<([i, j], [i, j], [i, j])->([i, j]) {i=12, j=64} "
        "need_replication={i}>");
  // concat(a, slice(a), a)
  CHECK(concat({{4, 64}, {2, 64}, {4, 64}}, {10, 64}, 0, {a, slice_of_a, a}) ==
        "<([i, j], [i, j], [i, j])->([i, j]) {i=10, j=64} permutation={i}>");
}

TEST_CASE("concatenate: conservative mode and bad input") {
  CHECK(text(concatenateRule({{4, 3, 256}, {4, 5, 256}}, {4, 8, 256}, 1, {},
                             /*conservative=*/true)) ==
        "<([i, k, j], [i, l, j])->([i, m, j]) {i=4, j=256, k=1, l=1, m=1}>");
  CHECK(concat({{4, 3}}, {4, 3}, 2).rfind("error: concatenate", 0) == 0);
  CHECK(concat({{4, 3}, {4}}, {4, 6}, 1).rfind("error: concatenate", 0) == 0);
  CHECK(concat({{4, 3}, {4, 3}}, {4, 6}, 1, {{true, 0}})
            .rfind("error: concatenate", 0) == 0);
  CHECK(!concatenateRule({}, {4}, 0).ok());
}

TEST_CASE("slice and pad: resized dims are permutation factors") {
  CHECK(verifiedText(sliceRule({32, 4, 8}, {32, 1, 2}), {{32, 4, 8}},
                     {{32, 1, 2}}) ==
        "<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k}>");
  CHECK(text(sliceRule({32, 4, 8}, {32, 1, 2}, /*conservative=*/true)) ==
        "<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k} "
        "blocked_propagation={j, k}>");
  CHECK(verifiedText(padRule({28, 28, 16}, {30, 26, 16}), {{28, 28, 16}, {}},
                     {{30, 26, 16}}) ==
        "<([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, "
        "j}>");
  CHECK(text(padRule({28, 28, 16}, {30, 26, 16}, /*conservative=*/true)) ==
        "<([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j} "
        "blocked_propagation={i, j}>");
  // Shifting by low=1, high=-1 keeps the size but still moves data.
  CHECK(text(padRule({8, 8}, {8, 8}, false, {0, 1}, {0, -1}, {0, 0})) ==
        "<([i, j], [])->([i, j]) {i=8, j=8} permutation={j}>");
  CHECK(text(padRule({8, 8}, {8, 8}, false, {0, 0}, {0, 0}, {0, 0})) ==
        "<([i, j], [])->([i, j]) {i=8, j=8}>");
  CHECK(!padRule({8, 8}, {8, 8}, false, {0}).ok());
  CHECK(!sliceRule({8, 8}, {8}).ok());
}

TEST_CASE("dynamic_slice: sliced dims are replicated and blocked") {
  CHECK(verifiedText(dynamicSliceRule({32, 4, 8}, {32, 1, 2}),
                     {{32, 4, 8}, {}, {}, {}}, {{32, 1, 2}}) ==
        "<([i, j, k], [], [], [])->([i, j, k]) {i=32, j=4, k=8} "
        "need_replication={j, k} blocked_propagation={j, k}>");
  CHECK(!dynamicSliceRule({32, 4}, {32}).ok());
}

TEST_CASE("dynamic_update_slice: the update has its own factors") {
  const std::vector<Shape> operands = {{32, 4, 8}, {32, 1, 2}, {}, {}, {}};
  CHECK(verifiedText(dynamicUpdateSliceRule({32, 4, 8}, {32, 1, 2}, {32, 4, 8}),
                     operands, {{32, 4, 8}}) ==
        "<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, "
        "l=8, m=2} need_replication={k, m}>");
  // With constant start indices the update need not be replicated.
  CHECK(verifiedText(dynamicUpdateSliceRule({32, 4, 8}, {32, 1, 2}, {32, 4, 8},
                                            {true, true, true}),
                     operands, {{32, 4, 8}}) ==
        "<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, "
        "l=8, m=2}>");
  CHECK(text(dynamicUpdateSliceRule({32, 4, 8}, {32, 1, 2}, {32, 4, 8},
                                    {false, true, false})) ==
        "<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, "
        "l=8, m=2} need_replication={m}>");
  CHECK(
      !dynamicUpdateSliceRule({32, 4, 8}, {32, 1, 2}, {32, 4, 8}, {true}).ok());
  CHECK(!dynamicUpdateSliceRule({32, 4}, {32, 1}, {32, 5}).ok());
}

}  // namespace
}  // namespace shardkit
