#include "shardkit/rules/pointwise_rules.h"

#include <catch2/catch.hpp>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::text;
using testing::verifiedText;

TEST_CASE("pointwise ops map every dim to one factor") {
  CHECK(verifiedText(pointwiseRule({{2, 1, 4}, {2, 1, 4}}, {{2, 1, 4}}),
                     {{2, 1, 4}, {2, 1, 4}}, {{2, 1, 4}}) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=1, k=4}>");
  CHECK(verifiedText(pointwiseRule({{2, 0, 4}, {2, 0, 4}}, {{2, 0, 4}}),
                     {{2, 0, 4}, {2, 0, 4}}, {{2, 0, 4}}) ==
        "<([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}>");
  CHECK(verifiedText(pointwiseRule({{}, {}}, {{}}), {{}, {}}, {{}}) ==
        "<([], [])->([])>");
  CHECK(text(identityRule({3, 5}, 2, 3)) ==
        "<([i, j], [i, j])->([i, j], [i, j], [i, j]) {i=3, j=5}>");
}

TEST_CASE("clamp and select allow scalar operands") {
  CHECK(verifiedText(clampRule({4, 8}, {4, 8}, {4, 8}, {4, 8}),
                     {{4, 8}, {4, 8}, {4, 8}}, {{4, 8}}) ==
        "<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>");
  CHECK(verifiedText(clampRule({}, {4, 8}, {}, {4, 8}), {{}, {4, 8}, {}},
                     {{4, 8}}) == "<([], [i, j], [])->([i, j]) {i=4, j=8}>");
  CHECK(verifiedText(selectRule({4, 8}, {4, 8}, {4, 8}, {4, 8}),
                     {{4, 8}, {4, 8}, {4, 8}}, {{4, 8}}) ==
        "<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>");
  CHECK(verifiedText(selectRule({}, {4, 8}, {4, 8}, {4, 8}),
                     {{}, {4, 8}, {4, 8}}, {{4, 8}}) ==
        "<([], [i, j], [i, j])->([i, j]) {i=4, j=8}>");
  CHECK(!clampRule({3}, {4, 8}, {}, {4, 8}).ok());
  CHECK(!selectRule({}, {4, 8}, {4, 7}, {4, 8}).ok());
}

TEST_CASE("bitcast_convert: the extra minor dim needs replication") {
  CHECK(verifiedText(bitcastConvertRule({4, 2, 2}, {4, 2}), {{4, 2, 2}},
                     {{4, 2}}) ==
        "<([i, j, k])->([i, j]) {i=4, j=2, k=2} need_replication={k}>");
  CHECK(verifiedText(bitcastConvertRule({4, 2, 2}, {4, 2, 2}), {{4, 2, 2}},
                     {{4, 2, 2}}) ==
        "<([i, j, k])->([i, j, k]) {i=4, j=2, k=2}>");
  CHECK(verifiedText(bitcastConvertRule({4, 2}, {4, 2, 2}), {{4, 2}},
                     {{4, 2, 2}}) ==
        "<([i, j])->([i, j, k]) {i=4, j=2, k=2} need_replication={k}>");
  CHECK(!bitcastConvertRule({4}, {4, 2, 2}).ok());
}

TEST_CASE("broadcast_in_dim") {
  auto check = [](const Shape& in, const Shape& out,
                  std::vector<int64_t> dims) {
    return verifiedText(broadcastInDimRule(in, out, dims), {in}, {out});
  };
  CHECK(check({2, 13, 1}, {2, 64, 13, 1}, {0, 2, 3}) ==
        "<([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=1}>");
  CHECK(check({2, 13, 0}, {2, 64, 13, 0}, {0, 2, 3}) ==
        "<([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=0}>");
  CHECK(check({}, {2, 1, 13}, {}) == "<([])->([i, j, k]) {i=2, j=1, k=13}>");
  // A size-1 dim expanded in place keeps its own factor.
  CHECK(check({2, 1, 13}, {2, 64, 13}, {0, 1, 2}) ==
        "<([i, j, l])->([i, k, l]) {i=2, j=1, k=64, l=13}>");
  CHECK(check({2, 3, 5, 1, 7}, {2, 5, 3, 11, 7, 13}, {0, 2, 1, 3, 4}) ==
        "<([i, k, j, l, n])->([i, j, k, m, n, o]) {i=2, j=5, k=3, l=1, m=11, "
        "n=7, o=13}>");
  CHECK(check({2, 3}, {2, 4}, {0, 1}).rfind("error: broadcast_in_dim", 0) == 0);
  CHECK(check({2}, {2, 4}, {0, 0}).rfind("error:", 0) == 0);
  CHECK(check({2}, {2, 4}, {}).rfind("error:", 0) == 0);
}

TEST_CASE("transpose and reverse") {
  CHECK(verifiedText(
            transposeRule({256, 32, 64, 100}, {100, 32, 256, 64}, {3, 1, 0, 2}),
            {{256, 32, 64, 100}}, {{100, 32, 256, 64}}) ==
        "<([k, j, l, i])->([i, j, k, l]) {i=100, j=32, k=256, l=64}>");
  CHECK(!transposeRule({2, 3}, {3, 2}, {1, 1}).ok());
  CHECK(verifiedText(reverseRule({4, 32, 8, 2}, {1, 3}), {{4, 32, 8, 2}},
                     {{4, 32, 8, 2}}) ==
        "<([i, j, k, l])->([i, j, k, l]) {i=4, j=32, k=8, l=2} "
        "permutation={j, l}>");
  CHECK(!reverseRule({4}, {1}).ok());
}

TEST_CASE("cholesky: the matrix dims need replication") {
  CHECK(verifiedText(choleskyRule({2, 4, 8, 8}), {{2, 4, 8, 8}},
                     {{2, 4, 8, 8}}) ==
        "<([i, j, k, l])->([i, j, k, l]) {i=2, j=4, k=8, l=8} "
        "need_replication={k, l}>");
  CHECK(!choleskyRule({8}).ok());
}

TEST_CASE("fft: fft dims need replication, a resized last dim is blocked") {
  auto check = [](const Shape& in, const Shape& out, int64_t fft_rank) {
    return verifiedText(fftRule(in, out, fft_rank), {in}, {out});
  };
  // FFT and IFFT keep the size.
  CHECK(check({8, 32, 64}, {8, 32, 64}, 2) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, "
        "k}>");
  // RFFT truncates, IRFFT expands the last dim.
  CHECK(check({8, 32, 64}, {8, 32, 33}, 2) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k} "
        "blocked_propagation={k}>");
  CHECK(check({8, 32, 33}, {8, 32, 64}, 2) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=32, k=33} need_replication={j, k} "
        "blocked_propagation={k}>");
  CHECK(check({8, 32, 64}, {8, 32, 64}, 1) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={k}>");
  CHECK(check({8, 32, 64}, {8, 32, 33}, 1) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={k} "
        "blocked_propagation={k}>");
  CHECK(check({8, 32, 33}, {8, 32, 64}, 1) ==
        "<([i, j, k])->([i, j, k]) {i=8, j=32, k=33} need_replication={k} "
        "blocked_propagation={k}>");
  CHECK(check({8, 32}, {8, 32}, 3).rfind("error: fft", 0) == 0);
}

TEST_CASE("sort: the sort dim needs replication") {
  CHECK(verifiedText(sortRule({{4, 32, 8}, {4, 32, 8}}, 0),
                     {{4, 32, 8}, {4, 32, 8}}, {{4, 32, 8}, {4, 32, 8}}) ==
        "<([i, j, k], [i, j, k])->([i, j, k], [i, j, k]) {i=4, j=32, k=8} "
        "need_replication={i}>");
  // Nothing else to shard: propagation along the sort dim is blocked.
  CHECK(verifiedText(sortRule({{1, 4, 1}}, 1), {{1, 4, 1}}, {{1, 4, 1}}) ==
        "<([i, j, k])->([i, j, k]) {i=1, j=4, k=1} need_replication={j} "
        "blocked_propagation={j}>");
  CHECK(!sortRule({{4, 3}, {4, 2}}, 0).ok());
  CHECK(!sortRule({{4, 3}}, 2).ok());
  CHECK(!sortRule({}, 0).ok());
}

TEST_CASE("batch norm ops map the 1-D operands to the feature dim") {
  const Shape x = {4, 8, 16, 32};
  const Shape f = {16};
  CHECK(verifiedText(batchNormInferenceRule(x, 2), {x, f, f, f, f}, {x}) ==
        "<([i, j, k, l], [k], [k], [k], [k])->([i, j, k, l]) {i=4, j=8, k=16, "
        "l=32}>");
  CHECK(verifiedText(batchNormTrainingRule(x, 2), {x, f, f}, {x, f, f}) ==
        "<([i, j, k, l], [k], [k])->([i, j, k, l], [k], [k]) {i=4, j=8, k=16, "
        "l=32}>");
  const Shape g = {32};
  CHECK(verifiedText(batchNormGradRule(x, 3), {x, g, g, g, x}, {x, g, g}) ==
        "<([i, j, k, l], [l], [l], [l], [i, j, k, l])->([i, j, k, l], [l], "
        "[l]) {i=4, j=8, k=16, l=32}>");
  CHECK(!batchNormInferenceRule(x, 4).ok());
}

TEST_CASE("rng_bit_generator: the state is replicated and blocked") {
  CHECK(verifiedText(rngBitGeneratorRule({2}, {2}, {4, 1000}), {{2}},
                     {{2}, {4, 1000}}) ==
        "<([i])->([i], [j, k]) {i=2, j=4, k=1000} need_replication={i} "
        "blocked_propagation={i}>");
  CHECK(!rngBitGeneratorRule({2}, {3}, {4}).ok());
}

}  // namespace
}  // namespace shardkit
