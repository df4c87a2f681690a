// -sdy-insert-explicit-reshards on several threads: the dry runs that find
// the first op whose visit changes the module (firstChangingOp) must never
// take a changing visit for an unchanged one, or the op would be skipped.
// Each case puts ops whose visits change nothing before one whose visit
// changes the module (or fails) in its own way, and compares the module and
// status with those of the one-thread run.
#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/export_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::parse;

// Ops whose visits change nothing, sharded like the function's %a.
constexpr const char* kUnchangedOps = R"(
  %p0 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
  %p1 = stablehlo.negate %p0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
  %p2 = stablehlo.add %p0, %p1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>)";

// The module `head` + unchanged ops + `tail`, after the pass with
// `threads`, printed, or the pass's error.
std::string runWith(const std::string& text, int threads) {
  std::unique_ptr<Module> m = parse(text);
  InsertExplicitReshardsOptions options;
  options.threads = threads;
  options.parallel_min_ops = 0;
  absl::Status status = insertExplicitReshards(*m, options);
  if (!status.ok()) return "error: " + std::string(status.message());
  return printModule(*m);
}

// Checks that one and two threads agree, and that the pass changed the
// module or failed (so that the case has a change for the dry runs to find).
void checkSameAsOneThread(const std::string& head, const std::string& tail) {
  std::string text = head + kUnchangedOps + tail;
  std::string one = runWith(text, 1);
  CHECK(runWith(text, 2) == one);
  CHECK(one != printModule(*parse(text)));
}

const std::string kMesh = R"(sdy.mesh @m = <["x"=4, "y"=2]>
)";

TEST_CASE("dry runs find an operand with unreduced axes") {
  checkSameAsOneThread(kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x32xf32> {)",
                       R"(
  %0 = stablehlo.add %p2, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
})");
}

TEST_CASE("dry runs find a dot whose results are all-reduced") {
  checkSameAsOneThread(kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<8x16xf32> {)",
                       R"(
  %c = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>} : tensor<8x32xf32>
  %0 = stablehlo.dot_general %c, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}], unreduced={"x"}>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
})");
}

TEST_CASE("dry runs find an op on a single device") {
  checkSameAsOneThread(kMesh + R"(sdy.mesh @d = <[], device_ids=[0]>
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x32xf32> {)",
                       R"(
  %0 = stablehlo.abs %p2 {sdy.sharding = #sdy.sharding_per_value<[<@d, []>]>} : tensor<8x32xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
})");
}

TEST_CASE("dry runs find a concatenate of operands sharded otherwise") {
  checkSameAsOneThread(kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}) -> tensor<16x32xf32> {)",
                       R"(
  %0 = stablehlo.concatenate %p2, %b, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
})");
}

TEST_CASE("dry runs find a reshard to unreduced axes") {
  checkSameAsOneThread(kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x32xf32> {)",
                       R"(
  %0 = sdy.reshard %p2 <@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
})");
}

TEST_CASE("dry runs find a call and a data-flow op") {
  checkSameAsOneThread(kMesh + R"(
func.func private @g(%x: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}) -> tensor<8x32xf32> {
  return %x : tensor<8x32xf32>
}
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x32xf32> {)",
                       R"(
  %0 = func.call @g(%p2) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
})");
  checkSameAsOneThread(kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x32xf32> {)",
                       R"(
  %0 = "stablehlo.optimization_barrier"(%p2) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
})");
}

TEST_CASE("dry runs find a visit that fails") {
  std::string head = kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> tensor<8x16xf32> {)";
  std::string tail = R"(
  %0 = stablehlo.dot_general %p2, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}], unreduced={"y"}>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
})";
  checkSameAsOneThread(head, tail);
  CHECK(runWith(head + kUnchangedOps + tail, 2).rfind("error: ", 0) == 0);
}

// More ops than one thread's share of the dry runs: the change is found in
// a later share, and an earlier change wins over a later one.
TEST_CASE("dry runs over many ops find the first change") {
  auto module = [](int ops, bool early_change) {
    std::string text = kMesh + R"(
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x32xf32> {
  %v0 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
)";
    for (int i = 1; i < ops; ++i) {
      // An early op reading %b has an operand with unreduced axes.
      std::string other = early_change && i == 5 ? "%b" : "%a";
      text +=
          "  %v" + std::to_string(i) + " = stablehlo.add %v" +
          std::to_string(i - 1) + ", " + other +
          R"( {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
)";
    }
    text +=
        "  %r = stablehlo.add %v" + std::to_string(ops - 1) +
        R"(, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x32xf32>
  return %r : tensor<8x32xf32>
})";
    return text;
  };
  for (bool early : {false, true}) {
    std::string text = module(20000, early);
    std::string one = runWith(text, 1);
    CHECK(runWith(text, 2) == one);
    CHECK(runWith(text, 3) == one);
    size_t reduces = 0;
    for (size_t at = one.find("sdy.all_reduce"); at != std::string::npos;
         at = one.find("sdy.all_reduce", at + 1)) {
      ++reduces;
    }
    CHECK(reduces == (early ? 2u : 1u));
  }
}

}  // namespace
}  // namespace shardkit
