// Helpers for the parse.h tests: the printed form of a parse result, and the
// exact "LINE:COL: message" of a parse error located by a marker substring.
#ifndef SHARDKIT_TESTS_UNIT_TEXT_PARSE_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_TEXT_PARSE_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/support/strings.h"

namespace shardkit::testing {

template <typename T>
std::string printed(const absl::StatusOr<T>& parsed) {
  INFO(std::string(fromAbsl(parsed.status().message())));
  REQUIRE(parsed.ok());
  return std::string(toString(*parsed));
}

template <typename T>
std::string errorOf(const absl::StatusOr<T>& parsed) {
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(fromAbsl(parsed.status().message()));
}

// "1:COL: message" where COL is where `at` first occurs in `text` (1-based);
// `at` must occur.
inline std::string errorAt(std::string_view text, std::string_view at,
                           std::string_view message) {
  size_t offset = text.find(at);
  REQUIRE(offset != std::string_view::npos);
  return strCat("1:", offset + 1, ": ", message);
}
// Same, at the last occurrence of `at`.
inline std::string errorAtLast(std::string_view text, std::string_view at,
                               std::string_view message) {
  size_t offset = text.rfind(at);
  REQUIRE(offset != std::string_view::npos);
  return strCat("1:", offset + 1, ": ", message);
}
inline std::string errorAtEnd(std::string_view text, std::string_view message) {
  return strCat("1:", text.size() + 1, ": ", message);
}

}  // namespace shardkit::testing

#define CHECK_PARSE_ERROR(parser, text, at, message)  \
  CHECK(::shardkit::testing::errorOf(parser(text)) == \
        ::shardkit::testing::errorAt(text, at, message))
#define CHECK_PARSE_ERROR_AT_LAST(parser, text, at, message) \
  CHECK(::shardkit::testing::errorOf(parser(text)) ==        \
        ::shardkit::testing::errorAtLast(text, at, message))
#define CHECK_PARSE_ERROR_AT_END(parser, text, message) \
  CHECK(::shardkit::testing::errorOf(parser(text)) ==   \
        ::shardkit::testing::errorAtEnd(text, message))

#endif  // SHARDKIT_TESTS_UNIT_TEXT_PARSE_TEST_UTIL_H_
