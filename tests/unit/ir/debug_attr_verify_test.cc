// The verifier on the propagation debug records and on func.call, and the
// error chains the reader reports for malformed sdy attributes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseError;

std::string withAdd(std::string_view attrs, std::string_view func_attrs = "") {
  return strCat(R"(sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32> )",
                func_attrs, R"() {
  %0 = stablehlo.add %arg0, %arg0 )",
                attrs, R"( : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
}

TEST_CASE("debug records verify") {
  const std::string sharding =
      R"(sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>)";
  CHECK(parseError(withAdd(strCat(
            "{sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = "
            R"([{"a" = operand-1 -> [operand-0, result-0]}]}]>, )",
            sharding, ", sdy.sharding_origins = [{a = \"input: 0\"}]}"))) ==
        "");
  CHECK(
      parseError(withAdd(strCat(
          R"({sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-2]}]}]>, )",
          sharding, "}"))) ==
      "test.mlir:3:3: error: 'stablehlo.add' op expected a value ref to "
      "have an operand index in range [0, 2), got: 2");
  CHECK(
      parseError(withAdd(
          R"({sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}]>})")) ==
      "test.mlir:3:3: error: 'stablehlo.add' op expected propagation edges "
      "attr to reference a sharding");
  // Attributes are checked in name order, as MLIR does: the edges before the
  // sharding.
  CHECK(
      parseError(withAdd(
          R"({sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"q" = result-0 -> [operand-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"q"}]>]>})")) ==
      "test.mlir:3:3: error: 'stablehlo.add' op expected axis ref to be in "
      "one of the meshes");
  CHECK(parseError(withAdd("{sdy.propagation_edges = 64}")) ==
        "test.mlir:3:3: error: 'stablehlo.add' op should have a propagation "
        "edges attribute of type PropagationEdgesAttr for attr named "
        "'sdy.propagation_edges'");
  CHECK(parseError(withAdd("{sdy.result_propagation_edges = [1, 2]}")) ==
        "test.mlir:3:3: error: 'stablehlo.add' op should have a propagation "
        "edges attribute of type ArrayAttr<PropagationEdgesAttr> for attr "
        "named 'sdy.result_propagation_edges' or "
        "'sdy.block_arg_propagation_edges'");
  CHECK(parseError(withAdd("{sdy.sharding_origins = [{a = 3}]}"))
            .find("should have a sharding origins attribute") !=
        std::string::npos);
  CHECK(parseError(withAdd("{sdy.sharding_origin_name = 7}"))
            .find("should have a string attribute") != std::string::npos);
  // On a function result.
  CHECK(
      parseError(withAdd(
          "",
          R"({sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = []}, {step-1 = []}]>})")) ==
      "test.mlir:2:1: error: 'func.func' op result 0 - propagation edges "
      "have duplicate step index: 1");
}

TEST_CASE("a call names a function of the module with its signature") {
  auto call = [](std::string_view callee, std::string_view types) {
    return parseError(
        strCat(R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @)",
               callee, R"((%arg0) : )", types, R"(
  return %0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)"));
  };
  CHECK(call("g", "(tensor<8xf32>) -> tensor<8xf32>") == "");
  CHECK(call("missing", "(tensor<8xf32>) -> tensor<8xf32>") ==
        "test.mlir:2:3: error: 'func.call' op 'missing' does not reference a "
        "valid function");
}

TEST_CASE("malformed attributes report the reference's chain of errors") {
  std::string error = parseError(withAdd(
      R"({sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}p01]>]>})"));
  CHECK(error.find("priorities with leading zeros are not allowed, got: p01") !=
        std::string::npos);
  CHECK(error.find("failed to parse Sdy_TensorSharding parameter "
                   "'dim_shardings'") != std::string::npos);
  CHECK(error.find("failed to parse Sdy_TensorShardingPerValue parameter "
                   "'shardings'") != std::string::npos);
  // One diagnostic per line, all at the attribute's line.
  CHECK(std::count(error.begin(), error.end(), '\n') == 2);
  error = parseError(R"(sdy.mesh @m = <["a"=0]>)");
  CHECK(error ==
        "test.mlir:1:21: error: custom op 'sdy.mesh' axis size must be at "
        "least 1, got: 0\n"
        "test.mlir:1:22: error: custom op 'sdy.mesh' failed to parse Sdy_Mesh "
        "parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`");
  // A factor symbol index past 2^63-1 is an error even when the rest parses.
  error = parseError(R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([z_99999999999999999999])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  CHECK(error.find("expecting symbol index <=2^63-1. Received: "
                   "'99999999999999999999'") != std::string::npos);
}

}  // namespace
}  // namespace shardkit
