// The integer lists of the StableHLO pretty forms (`dims = [1, 0]`):
// appendI64List writes any length and any int64_t, and reads back.
#include "src/dialect/stablehlo/stablehlo_syntax_util.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "shardkit/support/strings.h"

namespace shardkit::hlo_syntax {
namespace {

// The list as appendJoined writes it, the straightforward way.
std::string expectedList(const std::vector<int64_t>& values) {
  std::string out = "[";
  appendJoined(out, values, appendInt);
  return out + "]";
}

TEST_CASE("appendI64List writes lists of any length and value") {
  std::string out = "x = ";
  appendI64List(out, {});
  CHECK(out == "x = []");
  out.clear();
  appendI64List(out, {1, 0});
  CHECK(out == "[1, 0]");

  std::vector<int64_t> extremes = {std::numeric_limits<int64_t>::min(), -1, 0,
                                   std::numeric_limits<int64_t>::max()};
  out.clear();
  appendI64List(out, extremes);
  CHECK(out == expectedList(extremes));

  // Longer than one buffer of text, with the widest numbers.
  for (size_t n : {10u, 11u, 12u, 13u, 50u, 1000u}) {
    std::vector<int64_t> values;
    for (size_t i = 0; i < n; ++i) {
      values.push_back(i % 2 ? std::numeric_limits<int64_t>::min()
                             : static_cast<int64_t>(i));
    }
    out = "prefix";
    appendI64List(out, values);
    CHECK(out == "prefix" + expectedList(values));
  }
}

}  // namespace
}  // namespace shardkit::hlo_syntax
