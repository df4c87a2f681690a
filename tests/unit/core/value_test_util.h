// Catch2 helpers for the value semantics every core type promises: equality,
// absl::Hash consistent with it, and an fmt formatter that prints toString().
#ifndef SHARDKIT_TESTS_UNIT_CORE_VALUE_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_CORE_VALUE_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "fmt/format.h"

namespace shardkit::testing {

// `values` must be pairwise different. Checks that each value equals exactly
// itself and its copies, that copies hash alike, that different values hash
// differently (a collision of 64-bit hashes among a handful of values would
// point at a hash that ignores a field), and that a hash set keeps them all.
template <typename T>
void checkValueSemantics(const std::vector<T>& values) {
  std::vector<size_t> hashes;
  for (const T& value : values) hashes.push_back(absl::Hash<T>{}(value));
  for (size_t i = 0; i < values.size(); ++i) {
    const T copy = values[i];
    CHECK(copy == values[i]);
    CHECK(absl::Hash<T>{}(copy) == hashes[i]);
    for (size_t j = 0; j < values.size(); ++j) {
      INFO("values " << i << " and " << j);
      CHECK((values[i] == values[j]) == (i == j));
      if (i != j) CHECK(hashes[i] != hashes[j]);
    }
  }
  absl::flat_hash_set<T, absl::Hash<T>> set(values.begin(), values.end());
  CHECK(set.size() == values.size());
  for (const T& value : values) CHECK(set.contains(value));
}

// fmt prints what toString prints, and honours the usual string specs.
template <typename T>
void checkFormats(const T& value, const std::string& expected) {
  CHECK(std::string(toString(value)) == expected);
  CHECK(fmt::format("{}", value) == expected);
  const std::string spec = "[{:>" + std::to_string(expected.size() + 2) + "}]";
  CHECK(fmt::format(fmt::runtime(spec), value) == "[  " + expected + "]");
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_CORE_VALUE_TEST_UTIL_H_
