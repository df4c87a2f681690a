// -sdy-close-shardings, and the registration of the import/export passes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::onlyOp;
using import_testing::parse;
using import_testing::requireOk;
using import_testing::shardingText;

TEST_CASE(
    "close-shardings closes dims, drops replicated axes, keeps unreduced") {
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p2, {?}], replicated={"y"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}], unreduced={"z"}>]>} : tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x", ?}, {?}], replicated={"y", "z"}>] out_shardings=[<@mesh, [{"x", ?}, {?}], replicated={"z"}>] manual_axes={"x", "z"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)");
  requireOk(closeShardings(*module));
  FuncOp func(module->functions().front());
  CHECK(toString(func.argAttr(0, "sdy.sharding")) ==
        "#sdy.sharding<@mesh, [{\"x\"}p2, {}]>");
  CHECK(shardingText(onlyOp(*module, "stablehlo.negate"), "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}], unreduced={\"z\"}>]>");
  // Manual axes too, as in the reference.
  Op computation = onlyOp(*module, "sdy.manual_computation");
  CHECK(shardingText(computation, "in_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>");
  CHECK(shardingText(computation, "out_shardings") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>");
  requireOk(verifyModule(*module));
}

TEST_CASE("close-shardings: ops that shared a dictionary still share it") {
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.negate"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = "stablehlo.negate"(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = "stablehlo.negate"(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = "stablehlo.negate"(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)");
  std::vector<Op> ops = import_testing::opsNamed(*module, "stablehlo.negate");
  REQUIRE(ops.size() == 4);
  auto dict = [&](int i) -> const AttrDict& {
    return ops[i].discardableAttrs();
  };
  // The reader gives equal dictionaries of generic ops one set of entries.
  REQUIRE(dict(0).sharesWith(dict(1)));
  REQUIRE(dict(0).sharesWith(dict(3)));
  AttrDict before = dict(0);
  requireOk(closeShardings(*module));
  for (int i : {0, 1, 3}) {
    CHECK(shardingText(ops[i], "sdy.sharding") ==
          "#sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>");
  }
  CHECK(shardingText(ops[2], "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"y\"}, {}]>]>");
  CHECK(dict(0).sharesWith(dict(1)));
  CHECK(dict(0).sharesWith(dict(3)));
  CHECK_FALSE(dict(0).sharesWith(dict(2)));
  // A copy taken before the pass keeps the open sharding.
  CHECK(toString(before.get("sdy.sharding")) ==
        "#sdy.sharding_per_value<[<@mesh, [{\"x\", ?}, {?}]>]>");
}

TEST_CASE("the import and export passes are registered under sdy_opt's names") {
  for (const char* name :
       {"sdy-add-data-flow-edges", "sdy-apply-sharding-constraints",
        "sdy-constant-splitter", "sdy-constant-or-scalar-splitter",
        "sdy-lift-inlined-meshes", "sdy-manual-axes-cleanup",
        "sdy-sharding-group-import", "sdy-import-pipeline",
        "sdy-sink-data-flow-edges", "sdy-close-shardings"}) {
    INFO(name);
    CHECK(findPass(name) != nullptr);
  }
  const PassInfo* sink = findPass("sdy-sink-data-flow-edges");
  REQUIRE(sink != nullptr);
  REQUIRE(sink->options.size() == 2);
  CHECK(sink->options[0].name == "sink-debug-sharding-origins");
  CHECK(sink->options[1].name == "sink-debug-propagation-edge-sharding");
}

TEST_CASE("the import pipeline runs its passes in order") {
  auto module = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
  %1 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %2 = stablehlo.add %1, %0 : tensor<8xf32>
  %3 = sdy.sharding_constraint %2 <mesh<["a"=2]>, [{"a"}]> : tensor<8xf32>
  %4 = stablehlo.multiply %2, %0 : tensor<8xf32>
  return %3, %4 : tensor<8xf32>, tensor<8xf32>
}
)");
  requireOk(runPass(*module, "sdy-import-pipeline", PassOptions()));
  // Constants split, inline mesh lifted, an edge on the barrier, and the
  // constraint (closed, on a plain result) applied to the add.
  CHECK(import_testing::countOps(*module, "sdy.constant") == 2);
  CHECK(import_testing::countOps(*module, "sdy.data_flow_edge") == 1);
  CHECK(shardingText(onlyOp(*module, "stablehlo.add"), "sdy.sharding") ==
        "#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>");
  CHECK(shardingText(onlyOp(*module, "sdy.sharding_constraint"), "sharding") ==
        "#sdy.sharding<@mesh, [{\"a\"}]>");
}

}  // namespace
}  // namespace shardkit
