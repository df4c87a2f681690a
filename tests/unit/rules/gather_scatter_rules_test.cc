#include "shardkit/rules/gather_scatter_rules.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::text;
using testing::verifiedText;

std::string gather(const Shape& operand, const Shape& indices, const Shape& out,
                   const GatherDimensionNumbers& dims) {
  return verifiedText(gatherRule(operand, indices, out, dims),
                      {operand, indices}, {out});
}

TEST_CASE("gather: offset, batch, collapsed and index vector factors") {
  GatherDimensionNumbers dims;
  dims.offset_dims = {2, 3, 4};
  dims.collapsed_dims = {0};
  dims.index_map = {1, 0, 3};
  dims.index_vector_dim = 2;
  CHECK(gather({3, 4, 2, 5}, {2, 3, 3}, {2, 3, 2, 2, 1}, dims) ==
        "<([o, k, l, m], [i, j, p])->([i, j, k, l, n]) {i=2, j=3, k=4, l=2, "
        "m=5, n=1, o=3, p=3} reduction={m, o} need_replication={k, n, p} "
        "blocked_propagation={k}>");
}

TEST_CASE("gather: implicit index vector dim, size-1 collapsed dim") {
  GatherDimensionNumbers dims;
  dims.offset_dims = {3};
  dims.collapsed_dims = {0, 1};
  dims.index_map = {1};
  dims.index_vector_dim = 3;
  CHECK(gather({3, 1, 2}, {2, 3, 2}, {2, 3, 2, 2}, dims) ==
        "<([m, n, l], [i, j, k])->([i, j, k, l]) {i=2, j=3, k=2, l=2, m=3, "
        "n=1} reduction={m} need_replication={n}>");
}

TEST_CASE("gather: explicit batching dims") {
  GatherDimensionNumbers dims;
  dims.offset_dims = {3};
  dims.collapsed_dims = {1};
  dims.input_batching_dims = {0, 2};
  dims.indices_batching_dims = {1, 0};
  dims.index_map = {1, 3};
  dims.index_vector_dim = 3;
  CHECK(gather({5, 3, 7, 4}, {7, 5, 3, 2}, {7, 5, 3, 2}, dims) ==
        "<([j, m, i, l], [i, j, k, n])->([i, j, k, l]) {i=7, j=5, k=3, l=4, "
        "m=3, n=2} reduction={m} need_replication={l, n} "
        "blocked_propagation={l}>");
  // The index vector dim before a batching dim shifts the indices dims.
  dims.indices_batching_dims = {2, 0};
  dims.index_vector_dim = 1;
  CHECK(gather({5, 3, 7, 4}, {7, 2, 5, 3}, {7, 5, 3, 2}, dims) ==
        "<([j, m, i, l], [i, n, j, k])->([i, j, k, l]) {i=7, j=5, k=3, l=4, "
        "m=3, n=2} reduction={m} need_replication={l, n} "
        "blocked_propagation={l}>");
}

TEST_CASE("gather: bad dimension numbers") {
  GatherDimensionNumbers dims;
  dims.offset_dims = {1, 2};
  dims.collapsed_dims = {0};
  dims.index_vector_dim = 1;
  // Two offset dims but only one uncollapsed input dim.
  CHECK(gather({4, 8}, {3, 1}, {3, 8, 2}, dims) ==
        "error: gather: more offset dims than uncollapsed input dims");
  dims.offset_dims = {1};
  dims.index_vector_dim = 3;
  CHECK(gather({4, 8}, {3, 1}, {3, 8}, dims).rfind("error: gather", 0) == 0);
  dims.index_vector_dim = 1;
  dims.collapsed_dims = {2};
  CHECK(gather({4, 8}, {3, 1}, {3, 8}, dims).rfind("error: gather", 0) == 0);
  dims.collapsed_dims = {0};
  dims.input_batching_dims = {1};
  CHECK(gather({4, 8}, {3, 1}, {3, 8}, dims).rfind("error: gather", 0) == 0);
}

ScatterDimensionNumbers scatterDims(std::vector<int64_t> inserted,
                                    std::vector<int64_t> to_operand) {
  ScatterDimensionNumbers dims;
  dims.offset_dims = {2, 3};
  dims.collapsed_dims = std::move(inserted);
  dims.index_map = std::move(to_operand);
  dims.index_vector_dim = 2;
  return dims;
}

TEST_CASE("scatter: single input") {
  CHECK(verifiedText(scatterRule({{3, 4, 2}}, {2, 3, 2}, {{2, 3, 2, 2}},
                                 scatterDims({0}, {1, 0})),
                     {{3, 4, 2}, {2, 3, 2}, {2, 3, 2, 2}}, {{3, 4, 2}}) ==
        "<([n, k, m], [i, j, o], [i, j, l, m])->([n, k, m]) {i=2, j=3, k=4, "
        "l=2, m=2, n=3, o=2} reduction={i, j} need_replication={k, l, o}>");
  CHECK(verifiedText(scatterRule({{3, 4, 2}}, {2, 3}, {{2, 3, 2, 2}},
                                 scatterDims({0}, {0})),
                     {{3, 4, 2}, {2, 3}, {2, 3, 2, 2}}, {{3, 4, 2}}) ==
        "<([n, k, m], [i, j], [i, j, l, m])->([n, k, m]) {i=2, j=3, k=4, l=2, "
        "m=2, n=3} reduction={i, j} need_replication={k, l}>");
  CHECK(verifiedText(scatterRule({{4, 2, 3}}, {2, 3, 2}, {{2, 3, 2, 2}},
                                 scatterDims({2}, {1, 0})),
                     {{4, 2, 3}, {2, 3, 2}, {2, 3, 2, 2}}, {{4, 2, 3}}) ==
        "<([k, m, n], [i, j, o], [i, j, l, m])->([k, m, n]) {i=2, j=3, k=4, "
        "l=2, m=2, n=3, o=2} reduction={i, j} need_replication={k, l, o}>");
}

TEST_CASE("scatter: explicit batching dims") {
  ScatterDimensionNumbers dims;
  dims.offset_dims = {3};
  dims.collapsed_dims = {1};
  dims.input_batching_dims = {0, 2};
  dims.indices_batching_dims = {1, 0};
  dims.index_map = {1, 3};
  dims.index_vector_dim = 3;
  CHECK(verifiedText(
            scatterRule({{5, 3, 7, 4}}, {7, 5, 3, 2}, {{7, 5, 3, 2}}, dims),
            {{5, 3, 7, 4}, {7, 5, 3, 2}, {7, 5, 3, 2}}, {{5, 3, 7, 4}}) ==
        "<([j, n, i, l], [i, j, k, o], [i, j, k, m])->([j, n, i, l]) {i=7, "
        "j=5, k=3, l=4, m=2, n=3, o=2} reduction={k} need_replication={l, m, "
        "o}>");
}

TEST_CASE("scatter: several inputs; a non-reduction combiner") {
  const std::vector<Shape> operands = {
      {3, 4, 2}, {3, 4, 2}, {2, 3, 2}, {2, 3, 2, 2}, {2, 3, 2, 2}};
  const std::vector<Shape> results = {{3, 4, 2}, {3, 4, 2}};
  auto rule = [&](bool combiner_is_reduction) {
    return verifiedText(
        scatterRule({{3, 4, 2}, {3, 4, 2}}, {2, 3, 2},
                    {{2, 3, 2, 2}, {2, 3, 2, 2}}, scatterDims({0}, {1, 0}),
                    combiner_is_reduction),
        operands, results);
  };
  CHECK(rule(true) ==
        "<([n, k, m], [n, k, m], [i, j, o], [i, j, l, m], [i, j, l, m])->([n, "
        "k, m], [n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} reduction={i, "
        "j} need_replication={k, l, o}>");
  CHECK(rule(false) ==
        "<([n, k, m], [n, k, m], [i, j, o], [i, j, l, m], [i, j, l, m])->([n, "
        "k, m], [n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2} "
        "need_replication={i, j, k, l, o}>");
}

TEST_CASE("scatter: bad input") {
  CHECK(!scatterRule({}, {2}, {}, scatterDims({0}, {0})).ok());
  CHECK(
      !scatterRule({{3, 4, 2}}, {2, 3, 2}, {}, scatterDims({0}, {1, 0})).ok());
  CHECK(!scatterRule({{3, 4, 2}, {3, 4}}, {2, 3, 2},
                     {{2, 3, 2, 2}, {2, 3, 2, 2}}, scatterDims({0}, {1, 0}))
             .ok());
  CHECK(text(scatterRule({{3, 4, 2}}, {2}, {{2, 3, 2, 2}},
                         scatterDims({0}, {1, 0}))) ==
        "error: scatter: index_vector_dim 2 is out of range for indices of "
        "rank 1");
}

}  // namespace
}  // namespace shardkit
