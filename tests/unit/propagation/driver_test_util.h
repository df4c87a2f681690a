// Helpers for the driver and --explain-op unit tests: modules parsed from
// text, the sharding of a value as text.
#ifndef SHARDKIT_TESTS_UNIT_PROPAGATION_DRIVER_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_PROPAGATION_DRIVER_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/propagation/propagate.h"
#include "shardkit/support/strings.h"

namespace shardkit::testing {

inline std::unique_ptr<Module> parseModuleOrDie(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      parseModule(text, "test.mlir");
  INFO(text);
  if (!module.ok()) FAIL(std::string(fromAbsl(module.status().message())));
  return std::move(*module);
}

inline PropagationStats propagateOrDie(Module& module,
                                       const PropagationOptions& options = {}) {
  absl::StatusOr<PropagationStats> stats = propagate(module, options);
  if (!stats.ok()) FAIL(std::string(fromAbsl(stats.status().message())));
  return *stats;
}

// The first op named `name`, in pre-order.
inline Op firstOp(Module& module, std::string_view name) {
  Op found;
  module.walk([&](Op op) {
    if (!found && op.name() == name) found = op;
  });
  REQUIRE(found);
  return found;
}

// The sharding of `value` as text, "" if it has none.
inline std::string shardingText(Value value) {
  std::optional<TensorSharding> sharding = getSharding(value);
  return sharding ? toString(*sharding) : "";
}

inline std::string funcResultText(Module& module, unsigned result) {
  FuncOp func(module.functions().front());
  const TensorSharding* s =
      func.resultAttr(result, kShardingAttr).as<TensorSharding>();
  return s ? toString(*s) : "";
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_PROPAGATION_DRIVER_TEST_UTIL_H_
