// -sdy-export-named-computations: outlining, naming and the call's attributes.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/export_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;

TEST_CASE(
    "named computations become calls of private functions, innermost "
    "first, with names made unique by one counter") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2]>
func.func @g(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%a) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{}]>] (%b: tensor<8xf32>) {
    %1 = sdy.named_computation<"h">(%b) (%c: tensor<8xf32>) {
      %2 = stablehlo.abs %c : tensor<8xf32>
      sdy.return %2 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } {z_attr = 1 : i64, a_attr = 2 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.named_computation<"h">(%0) (%d: tensor<8xf32>) {
    sdy.return %d : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
})");
  requireOk(exportNamedComputations(*m));
  CHECK(countOps(*m, "sdy.named_computation") == 0);
  std::vector<std::string> names;
  for (Op f : m->functions()) names.emplace_back(FuncOp(f).name());
  // @g exists, so the outlined "g" is g_0 (after h); the second "h" is h_1.
  CHECK(names == std::vector<std::string>{"g", "h", "g_0", "h_1"});
  std::string text = printModule(*m);
  CHECK(text.find("call @g_0(%arg0) {a_attr = 2 : i64, sdy.sharding = "
                  "#sdy.sharding_per_value<[<@m, [{}]>]>, z_attr = 1 : i64}") !=
        std::string::npos);
  CHECK(text.find("func.func private @g_0(%arg0: tensor<8xf32> {sdy.sharding "
                  "= #sdy.sharding<@m, [{\"x\"}]>}) -> tensor<8xf32> "
                  "attributes {sdy.original_func_name = \"g\"}") !=
        std::string::npos);
  CHECK(text.find("%0 = call @h(%arg0)") != std::string::npos);
  CHECK(opsNamed(*m, "func.return").size() == 4);
}

}  // namespace
}  // namespace shardkit
