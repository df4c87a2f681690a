// Helpers of the mpmd unit tests: reading modules with the mpmd dialect
// registered, and the first error of a failed read.
#ifndef SHARDKIT_TESTS_UNIT_MPMD_MPMD_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_MPMD_MPMD_TEST_UTIL_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/mpmd/dialect.h"
#include "shardkit/passes/pass.h"

namespace shardkit::mpmd::testing {

// Parses (and verifies) `text`; fails the test on error.
inline std::unique_ptr<Module> parse(std::string_view text) {
  registerMpmdDialect();
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "t.mlir");
  if (!module.ok()) {
    FAIL_CHECK(module.status().message());
    return nullptr;
  }
  return *std::move(module);
}

// The first diagnostic of reading `text`, `LINE:COL: MESSAGE`, or "" when it
// reads and verifies.
inline std::string firstError(std::string_view text) {
  registerMpmdDialect();
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "t.mlir");
  if (module.ok()) return "";
  Diagnostic d = diagnosticsOf(module.status()).front();
  return std::to_string(d.location.line) + ":" +
         std::to_string(d.location.col) + ": " + d.message;
}

// Runs pass `name` (with `options`, `key=value ...`) on `text` and returns
// the printed module, or "error: MESSAGE".
inline std::string runPass(std::string_view text, std::string_view name,
                           std::string_view options = "") {
  std::unique_ptr<Module> module = parse(text);
  if (!module) return "error: parse";
  absl::StatusOr<PassOptions> parsed = PassOptions::parse(options);
  if (!parsed.ok()) return "error: " + std::string(parsed.status().message());
  absl::Status status = shardkit::runPass(*module, name, *parsed);
  if (!status.ok()) return "error: " + std::string(status.message());
  return printModule(*module);
}

// The number of occurrences of `what` in `text`.
inline size_t count(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

inline bool has(std::string_view text, std::string_view what) {
  return text.find(what) != std::string_view::npos;
}

// The topology most tests use: meshes m1 and m2 of 2 devices each.
inline constexpr std::string_view kTwoMeshes =
    "topology = #mpmd.topology<<\"m1\" : <[\"x\"=2]>>, "
    "<\"m2\" : <[\"x\"=2]>>>";

}  // namespace shardkit::mpmd::testing

#endif  // SHARDKIT_TESTS_UNIT_MPMD_MPMD_TEST_UTIL_H_
