// -sdy-insert-explicit-reshards on small modules.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/ir/module_io.h"
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

}  // namespace
}  // namespace shardkit
