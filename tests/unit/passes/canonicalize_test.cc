// -canonicalize: the greedy driver, dead-op erasure and the sdy patterns.
#include "shardkit/passes/canonicalize.h"

#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/passes/pass.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::parse;
using import_testing::requireOk;

std::string canonicalized(std::string_view text) {
  auto module = parse(text);
  requireOk(canonicalize(*module));
  return printModule(*module);
}

constexpr std::string_view kMeshes = R"(
sdy.mesh @m = <["x"=2, "y"=2, "z"=4]>
)";

TEST_CASE("a reshard of a reshard used only there reshards once") {
  std::string out = canonicalized(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.reshard %a <@m, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@m, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = sdy.reshard %a <@m, [{"y"}, {}]> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <@m, [{}, {"x"}]> : tensor<8x8xf32>
  %4 = stablehlo.add %2, %3 : tensor<8x8xf32>
  return %1, %4 : tensor<8x8xf32>, tensor<8x8xf32>
})");
  // %0 is gone (dead after the fold); %2 has two uses and stays.
  CHECK(out.find(R"(sdy.reshard %arg0 <@m, [{}, {"y"}]>)") !=
        std::string::npos);
  CHECK(out.find(R"(<@m, [{"x"}, {}]>)") == std::string::npos);
  CHECK(out.find(R"(sdy.reshard %arg0 <@m, [{}, {"x"}]>)") ==
        std::string::npos);
  CHECK(out.find(R"(<@m, [{}, {"x"}]>)") != std::string::npos);
}

TEST_CASE("a second identical reshard of a value reuses the first") {
  auto module = parse(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.reshard %a <@m, [{"z"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = sdy.reshard %a <@m, [{"z"}, {}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
})");
  requireOk(canonicalize(*module));
  CHECK(countOps(*module, "sdy.reshard") == 1);
}

TEST_CASE(
    "a reshard after a reshape reuses an earlier reshard that puts "
    "every element on the same devices") {
  std::string same = canonicalized(std::string(kMeshes) + R"(
func.func @f(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
  %0 = sdy.reshard %a <@m, [{"z"}, {}]> : tensor<4x8xf32>
  %1 = stablehlo.reshape %a : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = sdy.reshard %1 <@m, [{"z"}]> : tensor<32xf32>
  return %0, %2 : tensor<4x8xf32>, tensor<32xf32>
})");
  CHECK(same.find("stablehlo.reshape %0") != std::string::npos);
  // Sharding the minor dimension instead puts elements elsewhere.
  auto module = parse(std::string(kMeshes) + R"(
func.func @f(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
  %0 = sdy.reshard %a <@m, [{}, {"z"}]> : tensor<4x8xf32>
  %1 = stablehlo.reshape %a : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = sdy.reshard %1 <@m, [{"z"}]> : tensor<32xf32>
  return %0, %2 : tensor<4x8xf32>, tensor<32xf32>
})");
  requireOk(canonicalize(*module));
  CHECK(countOps(*module, "sdy.reshard") == 2);
}

TEST_CASE(
    "collectives that move nothing fold; inverse pairs cancel; "
    "collectives are never erased as dead") {
  std::string out = canonicalized(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{}, {}] %a out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %2 = sdy.all_slice [{"x"}, {}] %1 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  %3 = sdy.all_reduce {} %2 out_sharding=<@m, [{"x"}, {}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
})");
  CHECK(out.find("return %arg0") != std::string::npos);
  CHECK(out.find("sdy.all_gather [{\"x\"}, {}] %arg0") != std::string::npos);
  CHECK(out.find("sdy.all_slice") == std::string::npos);
  CHECK(out.find("sdy.all_reduce") == std::string::npos);
}

TEST_CASE("an all_reduce sliced by every reduction axis is a reduce_scatter") {
  std::string out = canonicalized(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x"} %a out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"x", "y"}, {}] %0 out_sharding=<@m, [{"x", "y"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
})");
  CHECK(
      out.find(
          R"(sdy.reduce_scatter [{"x"}, {}] %arg0 out_sharding=<@m, [{"x"}, {}]>)") !=
      std::string::npos);
  CHECK(out.find(R"(sdy.all_slice [{"y"}, {}] %0)") != std::string::npos);
  CHECK(out.find("sdy.all_reduce") == std::string::npos);

  // A reduction axis that no dimension slices first: nothing to fuse.
  auto module = parse(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x"} %a out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"y", "x"}, {}] %0 out_sharding=<@m, [{"y", "x"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
})");
  requireOk(canonicalize(*module));
  CHECK(countOps(*module, "sdy.all_reduce") == 1);
}

TEST_CASE("two all_to_alls fuse unless their dimensions overlap") {
  std::string out = canonicalized(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}, {"y"}, {}]>}) -> tensor<8x8x8x8xf32> {
  %0 = sdy.all_to_all [{"y"}: 2->3] %a out_sharding=<@m, [{"x"}, {}, {}, {"y"}]> : tensor<8x8x8x8xf32>
  %1 = sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@m, [{}, {"x"}, {}, {"y"}]> : tensor<8x8x8x8xf32>
  return %1 : tensor<8x8x8x8xf32>
})");
  CHECK(out.find(R"(sdy.all_to_all [{"x"}: 0->1, {"y"}: 2->3] %arg0)") !=
        std::string::npos);
  auto module = parse(std::string(kMeshes) + R"(
func.func @f(%a: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}, {}, {}]>}) -> tensor<8x8x8x8xf32> {
  %0 = sdy.all_to_all [{"y"}: 0->1] %a out_sharding=<@m, [{}, {"y"}, {}, {}]> : tensor<8x8x8x8xf32>
  %1 = sdy.all_to_all [{"y"}: 1->2] %0 out_sharding=<@m, [{}, {}, {"y"}, {}]> : tensor<8x8x8x8xf32>
  return %1 : tensor<8x8x8x8xf32>
})");
  requireOk(canonicalize(*module));
  CHECK(countOps(*module, "sdy.all_to_all") == 2);
}

TEST_CASE(
    "a manual computation drops unused inputs and is inlined when its "
    "manual axes have size 1") {
  auto module = parse(R"(
sdy.mesh @m = <["x"=1, "y"=2]>
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@m, [{"x"}]>, <@m, [{"x"}]>] out_shardings=[<@m, [{"x"}]>] manual_axes={"x"} (%l: tensor<8xf32>, %u: tensor<8xf32>) {
    %1 = stablehlo.negate %l : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  requireOk(canonicalize(*module));
  CHECK(countOps(*module, "sdy.manual_computation") == 0);
  std::string out = printModule(*module);
  CHECK(out.find("stablehlo.negate %arg0") != std::string::npos);

  auto kept = parse(R"(
sdy.mesh @m = <["x"=1, "y"=2]>
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%a, %b) in_shardings=[<@m, [{"y"}]>, <@m, [{}]>] out_shardings=[<@m, [{"y"}]>] manual_axes={"y"} (%l: tensor<4xf32>, %u: tensor<8xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  requireOk(canonicalize(*kept));
  std::string text = printModule(*kept);
  CHECK(text.find(
            "sdy.manual_computation(%arg0) in_shardings=[<@m, [{\"y\"}]>]") !=
        std::string::npos);
}

TEST_CASE("patterns registered for any op run, and unused pure ops go") {
  // Folds negate(negate(x)) to x: a pattern from outside the sdy dialect.
  registerCanonicalizationPattern(stablehlo::NegOp::opName(),
                                  [](Op op, PatternRewriter& rewriter) {
                                    Op inner = op.operand(0).definingOp();
                                    if (!isa<stablehlo::NegOp>(inner))
                                      return false;
                                    rewriter.replaceOp(op, inner.operand(0));
                                    return true;
                                  });
  auto module = parse(R"(
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %a : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  %2 = stablehlo.abs %a : tensor<8xf32>
  return %1 : tensor<8xf32>
})");
  REQUIRE(findPass("canonicalize") != nullptr);
  requireOk(runPass(*module, "canonicalize", PassOptions()));
  CHECK(countOps(*module, "stablehlo.negate") == 0);
  CHECK(countOps(*module, "stablehlo.abs") == 0);
}

TEST_CASE(
    "with no op a pattern is for, dead ops still go, nested ones and chains "
    "too") {
  constexpr std::string_view kText = R"(
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %a : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.negate %a : tensor<8xf32>
  return %2 : tensor<8xf32>
})";
  CanonicalizeOptions collectives_only;
  collectives_only.enabled_labels = {std::string(kCollectiveLabel)};
  auto module = parse(kText);
  requireOk(canonicalize(*module, collectives_only));
  CHECK(countOps(*module, "stablehlo.abs") == 0);
  CHECK(countOps(*module, "stablehlo.negate") == 1);
  // Nothing dead and nothing to rewrite: the module is left as it was.
  std::string before = printModule(*module);
  requireOk(canonicalize(*module, collectives_only));
  CHECK(printModule(*module) == before);

  auto nested = parse(R"(
func.func @g(%a: tensor<8xf32>) -> tensor<f32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %dead = stablehlo.abs %x : tensor<f32>
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %r : tensor<f32>
})");
  requireOk(canonicalize(*nested, collectives_only));
  CHECK(countOps(*nested, "stablehlo.abs") == 0);
  CHECK(countOps(*nested, "stablehlo.add") == 1);
}

}  // namespace
}  // namespace shardkit
