// -sdy-insert-explicit-reshards on small modules.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/export_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::contains;
using import_testing::countOps;
using import_testing::parse;
using import_testing::requireOk;

TEST_CASE("a dot sharded along its contracting dim gets an all-reduce") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4, "y"=2]>
func.func @f(%a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}, %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = stablehlo.dot %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/true}));
  std::string text = printModule(*m);
  CHECK(
      contains(text, R"(sdy.all_reduce {"y"} %0 out_sharding=<@m, [{}, {}]>)"));
  // The function result wants x on dim 0: one reshard before the return.
  CHECK(contains(text, R"(sdy.reshard %1 <@m, [{"x"}, {}]>)"));
  CHECK(countOps(*m, "sdy.reshard") == 1);
}

TEST_CASE("operands that disagree are resharded to the common sharding") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4, "y"=2]>
func.func @f(%a: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<4x32xf32>) -> (tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/true}));
  std::string text = printModule(*m);
  CHECK(contains(text, R"(sdy.reshard %arg1 <@m, [{"x"}, {}]>)"));
  CHECK(countOps(*m, "sdy.reshard") == 1);
}

TEST_CASE("without the full version only the unreduced axes are handled") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4, "y"=2]>
func.func @f(%a: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/false}));
  CHECK(countOps(*m, "sdy.reshard") == 0);
}

TEST_CASE("a function argument on a single device is an error") {
  auto m = parse(R"(
sdy.mesh @d = <[], device_ids=[0]>
func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@d, []>}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
})");
  absl::Status status = insertExplicitReshards(*m, {true});
  REQUIRE_FALSE(status.ok());
  CHECK(contains(std::string(status.message()), "single-device"));
}

TEST_CASE("repeated dots each get what the first of them got") {
  // The pass remembers the dot visits that changed nothing (by rule, types
  // and shardings) and skips their repeats: a repeat of a visit that did
  // change something, or of one with other shardings or types, is visited.
  std::string dot_a =
      "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] "
      "{sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"y\"}, {}]>]>} : "
      "(tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>";
  // The same types as `dot_a`, sharded as its lhs: nothing to change.
  std::string dot_same =
      "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] "
      "{sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"x\"}, {}]>]>} : "
      "(tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>";
  std::string dot_c =
      "stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] "
      "{sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"y\"}, {}]>]>} : "
      "(tensor<8x2xf32>, tensor<2x64xf32>) -> tensor<8x64xf32>";
  std::string dot_unreduced =
      "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] "
      "{sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"x\"}, {}], "
      "unreduced={\"y\"}>]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> "
      "tensor<8x8xf32>";
  std::string body;
  int i = 0;
  for (const std::string* dot : {&dot_same, &dot_a, &dot_c, &dot_unreduced,
                                 &dot_a, &dot_c, &dot_unreduced}) {
    body += "  %" + std::to_string(i++) + " = " + *dot + "\n";
  }
  std::string types =
      "tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x64xf32>, tensor<8x8xf32>, "
      "tensor<8x8xf32>, tensor<8x64xf32>, tensor<8x8xf32>";
  auto m = parse(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}, %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}, %c: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}, %d: tensor<2x64xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> ()" +
                 types + ") {\n" + body +
                 "  return %0, %1, %2, %3, %4, %5, %6 : " + types + "\n}");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/false}));
  std::string text = printModule(*m);
  INFO(text);
  // `dot_same` stays as it is; each of the two `dot_a`s runs sharded like
  // its lhs and reshards its (smaller) result; each unreduced dot gets its
  // all-reduce; the larger `dot_c` results stay as they are.
  CHECK(countOps(*m, "sdy.reshard") == 2);
  CHECK(countOps(*m, "sdy.all_reduce") == 2);
  CHECK(contains(text, R"(%2 = sdy.reshard %1 <@m, [{"y"}, {}]>)"));
  CHECK(contains(text, R"(%6 = sdy.reshard %5 <@m, [{"y"}, {}]>)"));
  CHECK(contains(text, "-> tensor<8x64xf32>\n    %4 = stablehlo.dot_general"));
}

}  // namespace
}  // namespace shardkit
