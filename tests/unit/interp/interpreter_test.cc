// runFunction: a module's functions run on host tensors, checks report
// failures without stopping, run_parallel's processes meet at collectives.
#include "shardkit/interp/interpreter.h"

#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/interp/literal.h"

namespace shardkit::interp {
namespace {

std::unique_ptr<Module> parse(const std::string& text) {
  registerInterpreterDialects();
  absl::StatusOr<std::unique_ptr<Module>> m = parseModule(text, "test.mlir");
  INFO(m.status().message());
  REQUIRE(m.ok());
  return *std::move(m);
}

Tensor ints(std::vector<int64_t> values) {
  Tensor t(ElementType::kSI32, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.setInt(i, values[i]);
  return t;
}

TEST_CASE("a function runs on its arguments") {
  auto m = parse(R"(
func.func @f(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %0 = stablehlo.multiply %a, %b : tensor<3xi32>
  %1 = stablehlo.add %0, %a : tensor<3xi32>
  return %1 : tensor<3xi32>
})");
  absl::StatusOr<RunResult> r =
      runFunction(*m, "f", {ints({1, 2, 3}), ints({4, 5, 6})});
  REQUIRE(r.ok());
  REQUIRE(r->results.size() == 1);
  CHECK(r->results[0].tensor() == ints({5, 12, 21}));
  CHECK(r->failed_checks.empty());
}

TEST_CASE("arguments of the wrong type are errors") {
  auto m = parse(R"(
func.func @f(%a: tensor<3xi32>) -> tensor<3xi32> {
  return %a : tensor<3xi32>
})");
  CHECK_FALSE(runFunction(*m, "f", {ints({1, 2})}).ok());
  CHECK_FALSE(runFunction(*m, "f", {}).ok());
  CHECK_FALSE(runFunction(*m, "g", {}).ok());
}

TEST_CASE("failed checks are reported in order and the run goes on") {
  auto m = parse(R"(
func.func @main() -> tensor<2xi32> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[1, 3]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[0, 2]> : tensor<2xi32>
  return %a : tensor<2xi32>
})");
  absl::StatusOr<RunResult> r = runFunction(*m, "main", {});
  REQUIRE(r.ok());
  REQUIRE(r->failed_checks.size() == 2);
  CHECK(r->failed_checks[0].location.line == 4);
  CHECK(r->failed_checks[1].location.line == 6);
  CHECK(r->failed_checks[0].message.find("2 (actual) vs 3 (expected)") !=
        std::string::npos);
  CHECK(r->results[0].tensor() == ints({1, 2}));
}

TEST_CASE("run_parallel hands out operands and collects results in order") {
  auto m = parse(R"(
func.func @p(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>, %c: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %r:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@p, @p, @p]]} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  return %r#0, %r#1, %r#2 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
})");
  absl::StatusOr<RunResult> r =
      runFunction(*m, "main", {ints({1, 1}), ints({2, 2}), ints({3, 3})});
  INFO(r.status().message());
  REQUIRE(r.ok());
  CHECK(r->results[0].tensor() == ints({3, 3}));
  CHECK(r->results[1].tensor() == ints({1, 1}));
  CHECK(r->results[2].tensor() == ints({2, 2}));
}

TEST_CASE("a collective no other process reaches is a deadlock, not a hang") {
  auto m = parse(R"(
func.func @a(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @b(%x: tensor<2xi32>) -> tensor<2xi32> {
  return %x : tensor<2xi32>
}
func.func @main(%x: tensor<2xi32>) {
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@a], [@b]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  return
})");
  absl::StatusOr<RunResult> r = runFunction(*m, "main", {ints({1, 2})});
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(r.status().message()).find("deadlock") !=
        std::string::npos);
}

TEST_CASE("an op the interpreter does not know is an error at the op") {
  auto m = parse(R"(
func.func @main() {
  %0 = "foo.bar"() : () -> tensor<i32>
  return
})");
  absl::StatusOr<RunResult> r = runFunction(*m, "main", {});
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(r.status().message()).find("test.mlir:3:3") !=
        std::string::npos);
}

TEST_CASE("a loop that never ends is stopped") {
  auto m = parse(R"(
func.func @main() {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.while(%i = %c) : tensor<i32>
   cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  return
})");
  RunOptions options;
  options.max_while_iterations = 100;
  absl::StatusOr<RunResult> r = runFunction(*m, "main", {}, options);
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(r.status().message()).find("iterations") !=
        std::string::npos);
}

}  // namespace
}  // namespace shardkit::interp
