#include "shardkit/support/nearest_name.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace shardkit {
namespace {

TEST_CASE("editDistance counts insertions, deletions and replacements") {
  CHECK(editDistance("", "") == 0);
  CHECK(editDistance("abc", "abc") == 0);
  CHECK(editDistance("", "abc") == 3);
  CHECK(editDistance("abc", "") == 3);
  CHECK(editDistance("kitten", "sitting") == 3);
  CHECK(editDistance("sdy-propagation-pipelin", "sdy-propagation-pipeline") ==
        1);
  CHECK(editDistance("flaw", "lawn") == 2);
}

TEST_CASE("nearestName suggests only a near candidate") {
  std::vector<std::string> names = {"comm-report", "dump-graph",
                                    "sdy-basic-propagate",
                                    "sdy-aggressive-propagate"};
  CHECK(nearestName("comm-reprt", names) == "comm-report");
  CHECK(nearestName("sdy-agressive-propagate", names) ==
        "sdy-aggressive-propagate");
  // A third of the name's length at most: an unrelated word gets nothing.
  CHECK(nearestName("frobnicate", names).empty());
  CHECK(nearestName("x", {"y"}) == "y");  // one edit is always allowed
  CHECK(nearestName("xy", {"ab"}).empty());
  CHECK(nearestName("abc", {}).empty());
  // The first of equally near candidates wins.
  CHECK(nearestName("ab", {"ac", "ad"}) == "ac");
}

}  // namespace
}  // namespace shardkit
