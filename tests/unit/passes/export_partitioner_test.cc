// The export passes around explicit reshards: unreduced targets, the
// non-full dot, even input/output shardings, single devices, symbol DCE,
// dropping shardings, collective clean-up, the collective check and the
// communication report.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/passes/comm_report.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "shardkit/passes/symbol_dce.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::contains;
using import_testing::countOps;
using import_testing::message;
using import_testing::parse;
using import_testing::requireOk;

TEST_CASE("a reshard to unreduced axes becomes r2u then s2u") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4, "y"=2, "z"=4]>
func.func @f(%a: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) -> tensor<32x32xf32> {
  %0 = sdy.reshard %a <@m, [{}, {}], unreduced={"x", "y", "z"}> : tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/false}));
  std::string text = printModule(*m);
  CHECK(countOps(*m, "sdy.reshard") == 0);
  CHECK(contains(
      text,
      R"(sdy.replicated_to_unreduced {"z"} %arg0 out_sharding=<@m, [{"x"}, {}], unreduced={"y", "z"}>)"));
  CHECK(contains(
      text,
      R"(sdy.sharded_to_unreduced [{"x"}, {}] %0 out_sharding=<@m, [{}, {}], unreduced={"x", "y", "z"}>)"));
}

TEST_CASE("a reshard that moves axes and adds unreduced ones: reshard, r2u") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4, "y"=2]>
func.func @f(%a: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<32x32xf32> {
  %0 = sdy.reshard %a <@m, [{}, {"x"}], unreduced={"y"}> : tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/false}));
  // The axes move by a reshard without the unreduced axes, which a
  // replicated_to_unreduced then adds.
  std::string text = printModule(*m);
  CHECK(countOps(*m, "sdy.reshard") == 1);
  CHECK(contains(text, R"(sdy.reshard %arg0 <@m, [{}, {"x"}]>)"));
  CHECK(contains(
      text,
      R"(sdy.replicated_to_unreduced {"y"} %0 out_sharding=<@m, [{}, {"x"}], unreduced={"y"}>)"));
}

TEST_CASE("a return that wants unreduced axes gets them") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4, "y"=2]>
func.func @f(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}], unreduced={"x"}>}) {
  return %a : tensor<4x8xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/true}));
  std::string text = printModule(*m);
  CHECK(contains(text, R"(%0 = sdy.reshard %arg0 <@m, [{}, {"y"}]>)"));
  CHECK(contains(
      text,
      R"(%1 = sdy.replicated_to_unreduced {"x"} %0 out_sharding=<@m, [{}, {"y"}], unreduced={"x"}>)"));
}

TEST_CASE("non-full version: a dot reshards its smaller result") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%a: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}, %b: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"x"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
})");
  requireOk(insertExplicitReshards(*m, {/*enable_full_version=*/false}));
  std::string text = printModule(*m);
  CHECK(contains(text, R"(sdy.sharding_per_value<[<@m, [{}, {"y"}]>]>)"));
  CHECK(contains(text, R"(sdy.reshard %0 <@m, [{}, {"x"}]>)"));
  CHECK(countOps(*m, "sdy.all_reduce") == 0);
}

TEST_CASE("even input/output shardings, sub-axes removed on main") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=8, "y"=3]>
func.func @main(%a: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y", "x", ?}]>}) -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) {
  return %a : tensor<6x6xf32>
})");
  requireOk(updateNonDivisibleInputOutputShardings(*m));
  std::string text = printModule(*m);
  CHECK(contains(text, R"(#sdy.sharding<@m, [{"x":(1)2}, {}]>)"));
  CHECK(contains(text, R"(#sdy.sharding<@m, [{}, {"y", "x":(1)2, ?}]>)"));
  requireOk(removeSubAxesInInputOutputShardings(*m));
  text = printModule(*m);
  // Closed dimensions keep their sub-axes; open ones stop before the first.
  CHECK(contains(text, R"(#sdy.sharding<@m, [{"x":(1)2}, {}]>)"));
  CHECK(contains(text, R"(#sdy.sharding<@m, [{}, {"y", ?}]>)"));
  CHECK(contains(text, R"(#sdy.sharding<@m, [{"y"}, {}]>)"));
}

TEST_CASE("without main, sub-axes removal is an error") {
  auto m = parse(R"(
func.func @a() { return }
func.func @b() { return }
)");
  CHECK_FALSE(removeSubAxesInInputOutputShardings(*m).ok());
}

TEST_CASE("a single-device op runs under a device guard") {
  const char* single = R"(
sdy.mesh @m = <["x"=2]>
sdy.mesh @dev1 = <[], device_ids=[1]>
func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<4xf32> {
  %0 = sdy.reshard %a <@dev1, []> : tensor<4xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@dev1, []>]>} : tensor<4xf32>
  %2 = sdy.reshard %1 <@m, [{}]> : tensor<4xf32>
  return %2 : tensor<4xf32>
})";
  auto m = parse(single);
  requireOk(resolveSingleDeviceSharding(*m));
  std::string text = printModule(*m);
  CHECK(countOps(*m, "sdy.reshard") == 0);
  CHECK(countOps(*m, "stablehlo.if") == 1);
  CHECK(contains(text, "stablehlo.constant dense<1> : tensor<i64>"));
  CHECK(contains(text, R"(sdy.all_reduce {"x"})"));
  CHECK(contains(text, "stablehlo.abs %arg0 : tensor<4xf32>"));
  // Several replicas and partitions at once: which id would name the
  // device? An error at the op to resolve, and none without one.
  CHECK_FALSE(resolveSingleDeviceSharding(*parse(single), {2, 2}).ok());
  CHECK(resolveSingleDeviceSharding(*m, {2, 2}).ok());
}

TEST_CASE("symbol DCE erases private functions nothing live calls") {
  auto m = parse(R"(
func.func @main() { call @used() : () -> () return }
func.func private @used() { call @chain() : () -> () return }
func.func private @chain() { return }
func.func private @unused() { call @chain() : () -> () return }
func.func @public_unused() { return }
)");
  requireOk(symbolDce(*m));
  std::string text = printModule(*m);
  CHECK(contains(text, "@used"));
  CHECK(contains(text, "@chain"));
  CHECK(contains(text, "@public_unused"));
  CHECK_FALSE(contains(text, "@unused"));
}

TEST_CASE("dropping shardings removes every mesh, named or not") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2]>
sdy.mesh @unused = <["y"=2]>
func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@unused, [{}]>}) {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  requireOk(dropShardingAndMesh(*m));
  std::string text = printModule(*m);
  CHECK_FALSE(contains(text, "sdy.sharding"));
  CHECK_FALSE(contains(text, "sdy.mesh"));
}

TEST_CASE("CMV1: an all-gather into a dot goes, its reduce-scatter stays") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.dot %0, %b : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
})");
  requireOk(removeAllGatherReduceScatterForCmv1(*m));
  CHECK(countOps(*m, "sdy.all_gather") == 0);
  CHECK(countOps(*m, "sdy.reduce_scatter") == 1);
}

TEST_CASE("CMV1: a dot's only reduce-scatter goes, its sharding moves") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = stablehlo.dot %a, %b : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = sdy.reduce_scatter [{"x"}, {}] %1 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
})");
  requireOk(removeAllGatherReduceScatterForCmv1(*m));
  std::string text = printModule(*m);
  CHECK(countOps(*m, "sdy.reduce_scatter") == 0);
  CHECK(contains(
      text,
      R"(stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>})"));
}

TEST_CASE("canonicalize runs only the enabled labels") {
  const char* text = R"(
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) -> tensor<8xf32> {
  %0 = sdy.all_gather [{}] %a out_sharding=<@m, [{}]> : tensor<8xf32>
  %1 = sdy.reshard %0 <@m, [{"x"}]> : tensor<8xf32>
  %2 = sdy.reshard %1 <@m, [{}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
})";
  auto reshards = parse(text);
  requireOk(canonicalize(*reshards, {{std::string(kReshardLabel)}}));
  CHECK(countOps(*reshards, "sdy.reshard") == 1);
  CHECK(countOps(*reshards, "sdy.all_gather") == 1);
  auto collectives = parse(text);
  requireOk(canonicalize(*collectives, {{std::string(kCollectiveLabel)}}));
  CHECK(countOps(*collectives, "sdy.reshard") == 2);
  CHECK(countOps(*collectives, "sdy.all_gather") == 0);
}

TEST_CASE("the collective check passes lowered reshards, fails wrong data") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%a: tensor<6x5xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>}) -> tensor<6x5xf32> {
  %0 = sdy.reshard %a <@m, [{}, {"y", "x"}]> : tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
})");
  requireOk(reshardToCollectives(*m, {}));
  CHECK(countOps(*m, "sdy.reshard") == 0);
  requireOk(checkCollectives(*m));
  auto wrong = parse(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.all_gather [{"x"}] %a out_sharding=<@m, [{}]> : tensor<8xf32>
  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@m, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
})");
  absl::Status status = checkCollectives(*wrong);
  REQUIRE_FALSE(status.ok());
  CHECK(contains(message(status), "'sdy.all_reduce' op does not hold"));
}

TEST_CASE("the communication report follows the ring model") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=4]>
func.func @f(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@m, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
})");
  absl::StatusOr<std::vector<CommReportEntry>> report = communicationReport(*m);
  REQUIRE(report.ok());
  REQUIRE(report->size() == 1);
  CHECK((*report)[0].op == "sdy.all_gather");
  CHECK((*report)[0].loc == "test.mlir:4:3");
  CHECK((*report)[0].axes == std::vector<std::string>{"x"});
  CHECK((*report)[0].local_bytes_in == 128);
  CHECK((*report)[0].bytes_received_per_device == 384);
  CHECK(contains(commReportJson(*report),
                 "\"total_bytes_received_per_device\": 384"));
  auto tokens = parse(R"(
sdy.mesh @m = <["x"=4]>
func.func @f(%a: tensor<4x!stablehlo.token> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<4x!stablehlo.token> {
  %0 = sdy.all_gather [{"x"}] %a out_sharding=<@m, [{}]> : tensor<4x!stablehlo.token>
  return %0 : tensor<4x!stablehlo.token>
})");
  CHECK_FALSE(communicationReport(*tokens).ok());
}

}  // namespace
}  // namespace shardkit
