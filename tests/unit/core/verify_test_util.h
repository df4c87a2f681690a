// Catch2 helpers for verifier tests: a status is OK, or is InvalidArgument
// with a message containing a key phrase.
#ifndef SHARDKIT_TESTS_UNIT_CORE_VERIFY_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_CORE_VERIFY_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <string>

#include "absl/status/status.h"
#include "shardkit/support/strings.h"

namespace shardkit::testing {

inline std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

}  // namespace shardkit::testing

#define SK_CHECK_VALID(expr)                                \
  do {                                                      \
    absl::Status sk_check_status_ = (expr);                 \
    INFO(::shardkit::testing::messageOf(sk_check_status_)); \
    CHECK(sk_check_status_.ok());                           \
  } while (false)

#define SK_CHECK_INVALID(expr, phrase)                                    \
  do {                                                                    \
    absl::Status sk_check_status_ = (expr);                               \
    CHECK(sk_check_status_.code() == absl::StatusCode::kInvalidArgument); \
    CHECK_THAT(::shardkit::testing::messageOf(sk_check_status_),          \
               Catch::Contains(phrase));                                  \
  } while (false)

#endif  // SHARDKIT_TESTS_UNIT_CORE_VERIFY_TEST_UTIL_H_
