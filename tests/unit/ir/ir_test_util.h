// Helpers shared by the IR unit tests.
#ifndef SHARDKIT_TESTS_UNIT_IR_IR_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_IR_IR_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit::testing {

// Parses `text` (verifying it) and fails the test with the diagnostics when
// it does not parse.
inline std::unique_ptr<Module> parseOrDie(std::string_view text,
                                          const ParseOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      parseModule(text, "test.mlir", options);
  INFO(text);
  if (!module.ok()) FAIL(std::string(fromAbsl(module.status().message())));
  return std::move(*module);
}

// The error message of parsing `text`; empty when it parses.
inline std::string parseError(std::string_view text,
                              const ParseOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      parseModule(text, "test.mlir", options);
  if (module.ok()) return "";
  return std::string(fromAbsl(module.status().message()));
}

// The `#sdy.sharding` body `text` (`<@mesh, [{"x"}, {}]>`); fails the test
// when it does not parse.
inline TensorSharding sharding(std::string_view text) {
  absl::StatusOr<TensorSharding> s = parseTensorSharding(text);
  REQUIRE(s.ok());
  return *s;
}

// Parses and prints `text`.
inline std::string roundTrip(std::string_view text, bool generic = false,
                             const ParseOptions& parse = {}) {
  std::unique_ptr<Module> module = parseOrDie(text, parse);
  PrintOptions options;
  options.generic = generic;
  return printModule(*module, options);
}

// Wraps function-level text in the module the printer produces.
inline std::string inModule(std::string_view body) {
  return strCat("module {\n", body, "\n}\n");
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_IR_IR_TEST_UTIL_H_
