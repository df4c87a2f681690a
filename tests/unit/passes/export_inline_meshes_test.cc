// -sdy-inline-meshes: shardings and replica groups get their meshes inline.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/export_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::countOps;
using import_testing::parse;
using import_testing::requireOk;

TEST_CASE("every mesh reference is replaced by the mesh, and mesh ops go") {
  auto m = parse(R"(
sdy.mesh @m = <["x"=2], device_ids=[1, 0]>
func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<4xf32> {
  %0 = sdy.reshard %a <@m, [{}]> : tensor<4xf32>
  %1 = "stablehlo.all_to_all"(%0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
})");
  requireOk(inlineMeshes(*m));
  CHECK(countOps(*m, "sdy.mesh") == 0);
  std::string text = printModule(*m);
  CHECK(text.find("@m") == std::string::npos);
  CHECK(text.find(
            R"(#sdy.sharding<mesh<["x"=2], device_ids=[1, 0]>, [{"x"}]>)") !=
        std::string::npos);
  CHECK(text.find(
            R"(sdy.reshard %arg0 <mesh<["x"=2], device_ids=[1, 0]>, [{}]>)") !=
        std::string::npos);
  CHECK(text.find("mesh = #stablehlo.mesh<axes=[<name = \"x\", size = 2>], "
                  "device_ids=dense<[1, 0]> : tensor<2xi64>>") !=
        std::string::npos);
}

}  // namespace
}  // namespace shardkit
