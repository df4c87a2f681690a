// The passes around the propagation debug records: -sdy-apply-sharding-
// constraints recording its copies as steps, the sink-debug options of
// -sdy-sink-data-flow-edges, -sdy-remove-propagation-debug-info, and the
// propagation passes' debug options.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/debug_info.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::onlyOp;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;

std::string attrText(const Attribute& attr) {
  return attr ? toString(attr) : "";
}

constexpr std::string_view kMesh = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
)";

TEST_CASE("apply-sharding-constraints records each copy as a step") {
  auto module = parse(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"b", "a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {"a"}]> : tensor<8x8xf32>
  %2 = stablehlo.abs %arg1 : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0, %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
)"));
  ApplyShardingConstraintsOptions options;
  options.debug_propagation_edges = true;
  requireOk(applyShardingConstraints(*module, options));
  std::vector<Op> constraints = opsNamed(*module, "sdy.sharding_constraint");
  REQUIRE(constraints.size() == 3);
  // Axes in axis order, one step per copied constraint; an open constraint
  // isn't copied.
  CHECK(
      attrText(constraints[0].attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}, )"
      R"({"b" = result-0 -> [operand-0]}]}]>)");
  CHECK(attrText(constraints[1].attr(kPropagationEdgesAttr)).empty());
  CHECK(
      attrText(constraints[2].attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-1 = [{"b" = result-0 -> [operand-0]}]}]>)");
  // Without the option nothing is recorded.
  auto plain = parse(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)"));
  requireOk(applyShardingConstraints(*plain));
  CHECK(!onlyOp(*plain, "sdy.sharding_constraint")
             .hasAttr(kPropagationEdgesAttr));
}

TEST_CASE("remove-propagation-debug-info drops every record") {
  auto module = parse(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, sdy.sharding_origins = {a = "self"}})
    -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding_origins = {a = "input: 0"}}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self"}} : tensor<8xf32>
  %1 = stablehlo.abs %0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>, sdy.sharding_origins = [{a = "constraint_0"}]} : tensor<8xf32>
  %2:2 = "stablehlo.optimization_barrier"(%1, %1) {sdy.block_arg_sharding_origins = [], sdy.result_sharding_origins = [{}, {a = "constraint_0"}], sdy.result_propagation_edges = []} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %2#0 : tensor<8xf32>
}
)"));
  CHECK(lastRecordedPropagationStep(*module) == 1);
  requireOk(runPass(*module, "sdy-remove-propagation-debug-info", {}));
  std::string text = printModule(*module);
  for (std::string_view name :
       {kShardingOriginsAttr, kPropagationEdgesAttr,
        kShardingOriginsAttrs.block_arg, kShardingOriginsAttrs.result,
        kPropagationEdgesAttrs.result}) {
    INFO(name);
    CHECK(text.find(name) == std::string::npos);
  }
  // The names stay, as in the reference; shardings stay.
  CHECK(text.find("sdy.sharding_origin_name = \"constraint_0\"") !=
        std::string::npos);
  CHECK(text.find(R"(sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>)") !=
        std::string::npos);
  CHECK(lastRecordedPropagationStep(*module) == -1);
}

TEST_CASE(
    "propagation passes take the debug options; a bad value is an error") {
  auto module = parse(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)"));
  absl::StatusOr<PassOptions> bad =
      PassOptions::parse("debug-sharding-origins=maybe");
  REQUIRE(bad.ok());
  CHECK_FALSE(runPass(*module, "sdy-basic-propagate", *bad).ok());
  absl::StatusOr<PassOptions> options = PassOptions::parse(
      "debug-sharding-origins=true debug-propagation-edge-sharding=true");
  REQUIRE(options.ok());
  requireOk(runPass(*module, "sdy-basic-propagate", *options));
  Op abs = onlyOp(*module, "stablehlo.abs");
  CHECK(attrText(abs.attr(kShardingOriginsAttr)) == R"([{a = "input: 0"}])");
  CHECK(
      attrText(abs.attr(kPropagationEdgesAttr)) ==
      R"(#sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>)");
}

TEST_CASE("the pipeline keeps the records on the data-flow ops") {
  auto module = parse(strCat(kMesh, R"(
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)"));
  absl::StatusOr<PassOptions> options = PassOptions::parse(
      "debug-sharding-origins=true debug-propagation-edge-sharding=true");
  REQUIRE(options.ok());
  requireOk(runPass(*module, "sdy-propagation-pipeline", *options));
  Op barrier = onlyOp(*module, "stablehlo.optimization_barrier");
  CHECK(attrText(barrier.attr(kShardingOriginsAttrs.result)) ==
        R"([{a = "input: 0"}])");
  CHECK(
      attrText(barrier.attr(kPropagationEdgesAttrs.result)) ==
      R"([#sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>])");
  CHECK(attrText(barrier.attr(kShardingOriginsAttrs.block_arg)) == "[]");
}

}  // namespace
}  // namespace shardkit
