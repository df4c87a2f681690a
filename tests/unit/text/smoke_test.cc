#include <catch2/catch.hpp>

#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

TEST_CASE("a tensor sharding round-trips through its text") {
  const char* text = R"(<@mesh, [{"x", ?}p1, {}], replicated={"y"}>)";
  absl::StatusOr<TensorSharding> sharding = parseTensorSharding(text);
  REQUIRE(sharding.ok());
  CHECK(toString(*sharding) == text);
}

}  // namespace
}  // namespace shardkit
