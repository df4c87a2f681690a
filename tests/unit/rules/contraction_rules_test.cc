#include "shardkit/rules/contraction_rules.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::text;
using testing::verifiedText;

TEST_CASE("dot of vectors and matrices") {
  auto check = [](const Shape& lhs, const Shape& rhs, const Shape& out) {
    return verifiedText(dotRule(lhs, rhs, out), {lhs, rhs}, {out});
  };
  CHECK(check({32}, {32}, {}) == "<([i], [i])->([]) {i=32} reduction={i}>");
  CHECK(check({32}, {32, 16}, {16}) ==
        "<([j], [j, i])->([i]) {i=16, j=32} reduction={j}>");
  CHECK(check({8, 32}, {32}, {8}) ==
        "<([i, j], [j])->([i]) {i=8, j=32} reduction={j}>");
  CHECK(check({8, 32}, {32, 16}, {8, 16}) ==
        "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>");
  CHECK(check({2, 8, 32}, {32}, {2, 8}).rfind("error: dot", 0) == 0);
  CHECK(check({8, 32}, {32}, {8, 1}).rfind("error: dot", 0) == 0);
}

TEST_CASE("dot_general: batching, free, then contracting factors") {
  auto check = [](const Shape& lhs, const Shape& rhs, const Shape& out,
                  const DotDimensionNumbers& dims) {
    return verifiedText(dotGeneralRule(lhs, rhs, out, dims), {lhs, rhs}, {out});
  };
  CHECK(check({8, 32}, {32, 16}, {8, 16}, {{}, {}, {1}, {0}}) ==
        "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>");
  CHECK(check({4, 8, 32}, {4, 32, 16}, {4, 8, 16}, {{0}, {0}, {2}, {1}}) ==
        "<([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} "
        "reduction={l}>");
  CHECK(check({2, 4, 8, 4, 64, 32}, {16, 32, 64, 4, 2}, {2, 4, 8, 4, 16},
              {{0, 1}, {4, 3}, {5, 4}, {1, 2}}) ==
        "<([i, j, k, l, o, n], [m, n, o, j, i])->([i, j, k, l, m]) {i=2, j=4, "
        "k=8, l=4, m=16, n=32, o=64} reduction={n, o}>");
  CHECK(check({8, 32}, {32, 16}, {8, 16}, {{}, {}, {1}, {}})
            .rfind("error: dot_general", 0) == 0);
  CHECK(check({8, 32}, {32, 16}, {8, 16}, {{}, {}, {2}, {0}})
            .rfind("error: dot_general", 0) == 0);
  CHECK(check({8, 32}, {32, 16}, {8}, {{}, {}, {1}, {0}})
            .rfind("error: dot_general", 0) == 0);
}

ConvDimensionNumbers nhwcDims() {
  // [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
  ConvDimensionNumbers dims;
  dims.input_batch = 0;
  dims.input_spatial = {1, 2};
  dims.input_feature = 3;
  dims.kernel_spatial = {0, 1};
  dims.kernel_input_feature = 2;
  dims.kernel_output_feature = 3;
  dims.output_batch = 0;
  dims.output_spatial = {1, 2};
  dims.output_feature = 3;
  return dims;
}

std::string conv(const Shape& lhs, const Shape& rhs, const Shape& out,
                 int64_t batch_groups = 1, int64_t feature_groups = 1) {
  return verifiedText(
      convolutionRule(lhs, rhs, out, nhwcDims(), batch_groups, feature_groups),
      {lhs, rhs}, {out});
}

TEST_CASE("convolution: spatial dims split into windows and window size") {
  CHECK(conv({2, 224, 224, 192}, {3, 3, 192, 64}, {2, 112, 112, 64}) ==
        "<([i, jk, lm, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=112, k=2, "
        "l=112, m=2, n=192, o=64} reduction={k, m, n} permutation={j, l}>");
  // The window is larger than the number of windows: it is the major factor.
  CHECK(conv({2, 224, 224, 192}, {112, 112, 192, 64}, {2, 57, 57, 64}) ==
        "<([i, jk, lm, n], [j, l, n, o])->([i, k, m, o]) {i=2, j=112, k=2, "
        "l=112, m=2, n=192, o=64} reduction={j, l, n} permutation={k, m}>");
}

TEST_CASE("convolution: batch and feature groups") {
  CHECK(conv({8, 224, 224, 192}, {3, 3, 192, 256}, {2, 112, 112, 256}, 4) ==
        "<([ij, kl, mn, o], [l, n, o, ip])->([j, k, m, ip]) {i=4, j=2, k=112, "
        "l=2, m=112, n=2, o=192, p=64} reduction={l, n, o} permutation={k, "
        "m}>");
  // A per-group batch of size 1 maps only to the size-1 output batch dim.
  CHECK(conv({4, 224, 224, 192}, {3, 3, 192, 256}, {1, 112, 112, 256}, 4) ==
        "<([i, kl, mn, o], [l, n, o, ip])->([j, k, m, ip]) {i=4, j=1, k=112, "
        "l=2, m=112, n=2, o=192, p=64} reduction={l, n, o} permutation={k, "
        "m}>");
  CHECK(conv({8, 224, 224, 192}, {3, 3, 12, 256}, {8, 112, 112, 256}, 1, 16) ==
        "<([i, jk, lm, no], [k, m, o, np])->([i, j, l, np]) {i=8, j=112, k=2, "
        "l=112, m=2, n=16, o=12, p=16} reduction={k, m, o} permutation={j, "
        "l}>");
  CHECK(conv({8, 224, 224, 16}, {3, 3, 1, 256}, {8, 112, 112, 256}, 1, 16) ==
        "<([i, jk, lm, n], [k, m, o, np])->([i, j, l, np]) {i=8, j=112, k=2, "
        "l=112, m=2, n=16, o=1, p=16} reduction={k, m, o} permutation={j, "
        "l}>");
  // One output feature per group: that factor has size 1 and is dropped.
  CHECK(conv({8, 224, 224, 192}, {3, 3, 12, 16}, {8, 112, 112, 16}, 1, 16) ==
        "<([i, jk, lm, no], [k, m, o, n])->([i, j, l, n]) {i=8, j=112, k=2, "
        "l=112, m=2, n=16, o=12} reduction={k, m, o} permutation={j, l}>");
}

TEST_CASE("convolution: conservative mode has no spatial factors") {
  CHECK(text(convolutionRule({2, 224, 224, 192}, {3, 3, 192, 64},
                             {2, 112, 112, 64}, nhwcDims(), 1, 1,
                             /*conservative=*/true)) ==
        "<([i, l, m, j], [n, o, j, k])->([i, p, q, k]) {i=2, j=192, k=64, "
        "l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>");
}

TEST_CASE("convolution: bad dimension numbers and group counts") {
  ConvDimensionNumbers dims = nhwcDims();
  dims.kernel_spatial = {0};
  CHECK(!convolutionRule({2, 8, 8, 4}, {3, 3, 4, 4}, {2, 8, 8, 4}, dims).ok());
  dims = nhwcDims();
  dims.output_feature = 1;
  CHECK(!convolutionRule({2, 8, 8, 4}, {3, 3, 4, 4}, {2, 8, 8, 4}, dims).ok());
  CHECK(conv({2, 8, 8, 4}, {3, 3, 4, 4}, {2, 8, 8, 4}, 2, 2)
            .rfind("error: convolution: invalid group counts", 0) == 0);
  CHECK(conv({2, 8, 8, 4}, {3, 3, 4, 6}, {2, 8, 8, 6}, 1, 4)
            .rfind("error: convolution", 0) == 0);
}

TEST_CASE("triangular_solve: all four side/transpose combinations") {
  auto check = [](const Shape& a, const Shape& b, bool left, bool transpose) {
    return verifiedText(triangularSolveRule(a, b, b, left, transpose), {a, b},
                        {b});
  };
  CHECK(check({8, 3, 3}, {8, 3, 5}, true, false) ==
        "<([i, j, l], [i, j, k])->([i, l, k]) {i=8, j=3, k=5, l=3} "
        "need_replication={j, k, l}>");
  CHECK(check({8, 3, 3}, {8, 5, 3}, false, false) ==
        "<([i, l, k], [i, j, k])->([i, j, l]) {i=8, j=5, k=3, l=3} "
        "need_replication={j, k, l}>");
  CHECK(check({8, 3, 3}, {8, 3, 5}, true, true) ==
        "<([i, l, j], [i, j, k])->([i, l, k]) {i=8, j=3, k=5, l=3} "
        "need_replication={j, k, l}>");
  CHECK(check({8, 3, 3}, {8, 5, 3}, false, true) ==
        "<([i, k, l], [i, j, k])->([i, j, l]) {i=8, j=5, k=3, l=3} "
        "need_replication={j, k, l}>");
  CHECK(check({3}, {3}, true, false).rfind("error: triangular_solve", 0) == 0);
}

}  // namespace
}  // namespace shardkit
