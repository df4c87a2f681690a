#include "shardkit/rules/reshape.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::dimFactorProduct;
using testing::verifiedText;

std::string reshapeText(const Shape& in, const Shape& out) {
  return verifiedText(reshapeRule(in, out), {in}, {out});
}

TEST_CASE("reshape: merge and split") {
  CHECK(reshapeText({2, 4}, {8}) == "<([i, j])->([ij]) {i=2, j=4}>");
  CHECK(reshapeText({8}, {2, 4}) == "<([ij])->([i, j]) {i=2, j=4}>");
  CHECK(reshapeText({2, 4, 32}, {8, 32}) ==
        "<([i, j, k])->([ij, k]) {i=2, j=4, k=32}>");
  CHECK(reshapeText({4, 12}, {4, 2, 3, 2}) ==
        "<([i, jkl])->([i, j, k, l]) {i=4, j=2, k=3, l=2}>");
  CHECK(reshapeText({8, 4, 5}, {2, 16, 5}) ==
        "<([ij, k, l])->([i, jk, l]) {i=2, j=4, k=4, l=5}>");
}

TEST_CASE("reshape: the gcd decomposition when neither dim divides the other") {
  // Seed example: 8x4 -> 2x16 is ((ij), k) -> (i, (jk)).
  CHECK(reshapeText({8, 4}, {2, 16}) ==
        "<([ij, k])->([i, jk]) {i=2, j=4, k=4}>");
  CHECK(reshapeText({6, 4}, {4, 6}) ==
        "<([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}>");
  CHECK(reshapeText({2, 3, 8}, {3, 4, 4}) ==
        "<([i, k, mn])->([j, lm, n]) {i=2, j=3, k=3, l=2, m=2, n=4}>");
  CHECK(reshapeText({3, 4, 4}, {2, 3, 8}) ==
        "<([i, lm, n])->([j, k, mn]) {i=3, j=2, k=3, l=2, m=2, n=4}>");
  CHECK(reshapeText({4, 7, 5, 8}, {14, 10, 8}) ==
        "<([ij, l, n, o])->([ik, mn, o]) {i=2, j=2, k=7, l=7, m=2, n=5, "
        "o=8}>");
}

TEST_CASE("reshape: sizes without a common divisor get separate factors") {
  CHECK(reshapeText({3, 2}, {2, 3}) ==
        "<([i, l])->([j, k]) {i=3, j=2, k=3, l=2}>");
  CHECK(reshapeText({5, 2, 5, 3}, {5, 3, 5, 2}) ==
        "<([i, j, l, n])->([i, k, m, o]) {i=5, j=2, k=3, l=5, m=5, n=3, "
        "o=2}>");
}

TEST_CASE("reshape: size-1 dims get their own factors") {
  CHECK(reshapeText({1, 1}, {}) == "<([i, j])->([]) {i=1, j=1}>");
  CHECK(reshapeText({1, 8, 4}, {8, 1, 4, 1}) ==
        "<([i, j, l])->([j, k, l, m]) {i=1, j=8, k=1, l=4, m=1}>");
  CHECK(reshapeText({8, 4}, {32, 1}) ==
        "<([i, j])->([ij, k]) {i=8, j=4, k=1}>");
  CHECK(reshapeText({32, 1}, {8, 4}) ==
        "<([ij, k])->([i, j]) {i=8, j=4, k=1}>");
  CHECK(reshapeText({32}, {8, 1, 4}) ==
        "<([ik])->([i, j, k]) {i=8, j=1, k=4}>");
  CHECK(reshapeText({}, {}) == "<([])->([])>");
}

TEST_CASE("reshape: no rule for empty tensors, errors for bad shapes") {
  CHECK(reshapeText({4, 0}, {0, 8}) == "no rule");
  CHECK(reshapeText({4, 3}, {5}) == "error: reshape from 12 to 5 elements");
  CHECK(reshapeText({kDynamicSize, 3}, {3, kDynamicSize})
            .rfind("error: reshape needs static shapes", 0) == 0);
  CHECK(reshapeText({int64_t{1} << 40, int64_t{1} << 40}, {1}) ==
        "error: reshape operand has too many elements");
}

// A random shape whose element count is `count`, built from the prime
// factors of `count` grouped into dims, with size-1 dims sprinkled in.
Shape randomShape(std::mt19937_64& rng, std::vector<int64_t> primes) {
  std::shuffle(primes.begin(), primes.end(), rng);
  Shape shape;
  std::uniform_int_distribution<int> coin(0, 3);
  int64_t current = 1;
  for (int64_t p : primes) {
    current *= p;
    if (coin(rng) == 0) {
      shape.push_back(current);
      current = 1;
    }
    if (coin(rng) == 0 && coin(rng) == 0) shape.push_back(1);
  }
  if (current > 1 || shape.empty()) shape.push_back(current);
  return shape;
}

TEST_CASE("reshape: 300 random pairs factor both shapes exactly") {
  std::mt19937_64 rng(20240601);
  const std::vector<int64_t> prime_pool = {2, 2, 2, 2, 3, 3, 5, 7};
  std::uniform_int_distribution<size_t> num_primes(0, prime_pool.size());
  for (int iteration = 0; iteration < 300; ++iteration) {
    std::vector<int64_t> primes(prime_pool.begin(), prime_pool.end());
    std::shuffle(primes.begin(), primes.end(), rng);
    primes.resize(num_primes(rng));
    Shape in = randomShape(rng, primes);
    Shape out = randomShape(rng, primes);
    INFO("in " << testing::shapeString(in) << " out "
               << testing::shapeString(out));
    absl::StatusOr<std::optional<OpShardingRule>> rule = reshapeRule(in, out);
    REQUIRE(rule.ok());
    REQUIRE(rule->has_value());
    const OpShardingRule& r = **rule;
    // Every dim is the product of its factors, on both sides.
    for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
      CHECK(dimFactorProduct(r, 0, d) == in[d]);
    }
    for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
      CHECK(dimFactorProduct(r, 1, d) == out[d]);
    }
    // And the rule is a valid rule for these shapes.
    CHECK(verifiedText(r, {in}, {out}) == toString(r));
  }
}

}  // namespace
}  // namespace shardkit
