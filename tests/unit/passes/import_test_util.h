// Helpers shared by the import/export pass unit tests: modules parsed from
// text and small queries on them.
#ifndef SHARDKIT_TESTS_UNIT_PASSES_IMPORT_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_PASSES_IMPORT_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/ir/graph.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit::import_testing {

// Parses (and verifies) `text`; fails the test with the diagnostics if it
// does not parse.
inline std::unique_ptr<Module> parse(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      parseModule(text, "test.mlir");
  INFO(text);
  if (!module.ok()) FAIL(std::string(fromAbsl(module.status().message())));
  return std::move(*module);
}

// Fails the test with the message of a non-OK status.
inline void requireOk(const absl::Status& status) {
  INFO(std::string(fromAbsl(status.message())));
  REQUIRE(status.ok());
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::string message(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

// The live ops called `name`, in pre-order.
inline std::vector<Op> opsNamed(Module& module, std::string_view name) {
  std::vector<Op> ops;
  module.walk([&](Op op) {
    if (op.name() == name) ops.push_back(op);
  });
  return ops;
}

inline size_t countOps(Module& module, std::string_view name) {
  return opsNamed(module, name).size();
}

// The only op called `name`; fails the test if there is not exactly one.
inline Op onlyOp(Module& module, std::string_view name) {
  std::vector<Op> ops = opsNamed(module, name);
  INFO(name);
  REQUIRE(ops.size() == 1);
  return ops.front();
}

// The function called `name`; fails the test if there is none.
inline FuncOp funcNamed(Module& module, std::string_view name) {
  for (Op f : module.functions()) {
    if (FuncOp(f).name() == name) return FuncOp(f);
  }
  FAIL("no function @" << std::string(name));
  return FuncOp();
}

// The names of the module's functions, in order.
inline std::vector<std::string> functionNames(Module& module) {
  std::vector<std::string> names;
  for (Op f : module.functions()) names.emplace_back(FuncOp(f).name());
  return names;
}

inline TensorSharding sharding(std::string_view text) {
  absl::StatusOr<TensorSharding> s = parseTensorSharding(text);
  INFO(text);
  REQUIRE(s.ok());
  return *s;
}

// The text of the sharding attribute `attr` of `op`, or "" if it has none.
inline std::string shardingText(Op op, std::string_view attr) {
  Attribute a = op.attr(attr);
  if (!a) return "";
  return toString(a);
}

}  // namespace shardkit::import_testing

#endif  // SHARDKIT_TESTS_UNIT_PASSES_IMPORT_TEST_UTIL_H_
