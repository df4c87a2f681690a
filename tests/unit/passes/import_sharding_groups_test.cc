// -sdy-sharding-group-import on parsed modules.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/import_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::message;
using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;

// (argument number, group id) of every sharding group op, in order.
std::vector<std::pair<unsigned, int64_t>> groups(Module& module) {
  std::vector<std::pair<unsigned, int64_t>> result;
  for (Op op : opsNamed(module, "sdy.sharding_group")) {
    result.emplace_back(op.operand(0).index(), *op.attr("group_id").intValue());
  }
  return result;
}

using Groups = std::vector<std::pair<unsigned, int64_t>>;

TEST_CASE("groups sharing a value merge; ids follow first appearance") {
  auto module = parse(R"(
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) {
  sdy.sharding_group %arg0 group_id = 90 : tensor<4xf32>
  sdy.sharding_group %arg1 group_id = 7 : tensor<4xf32>
  sdy.sharding_group %arg2 group_id = 90 : tensor<4xf32>
  sdy.sharding_group %arg2 group_id = 12 : tensor<4xf32>
  sdy.sharding_group %arg3 group_id = 12 : tensor<4xf32>
  sdy.sharding_group %arg3 group_id = 90 : tensor<4xf32>
  return
}
)");
  requireOk(importShardingGroups(*module));
  // 90 and 12 merge (through %arg2) into group 0, listed first; 7 is group 1.
  // The second op of %arg2 and of %arg3 name the merged group again and go.
  CHECK(groups(*module) == Groups{{0, 0}, {1, 1}, {2, 0}, {3, 0}});
}

TEST_CASE("merging is transitive across chains of values") {
  auto module = parse(R"(
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) {
  sdy.sharding_group %arg0 group_id = 3 : tensor<4xf32>
  sdy.sharding_group %arg0 group_id = 2 : tensor<4xf32>
  sdy.sharding_group %arg1 group_id = 2 : tensor<4xf32>
  sdy.sharding_group %arg1 group_id = 1 : tensor<4xf32>
  sdy.sharding_group %arg2 group_id = 1 : tensor<4xf32>
  return
}
)");
  requireOk(importShardingGroups(*module));
  CHECK(groups(*module) == Groups{{0, 0}, {1, 0}, {2, 0}});
}

TEST_CASE("a group may not mix shapes") {
  auto module = parse(R"(
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<2x2xf32>) {
  sdy.sharding_group %arg0 group_id = 3 : tensor<4xf32>
  sdy.sharding_group %arg1 group_id = 3 : tensor<2x2xf32>
  return
}
)");
  absl::Status status = importShardingGroups(*module);
  REQUIRE(!status.ok());
  CHECK(message(status) ==
        "test.mlir:4:3: error: 'sdy.sharding_group' op ShardingGroupOps values "
        "must have the same shape for groupId: 3");
}

TEST_CASE("a group may not cross manual computation levels") {
  auto module = parse(R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  sdy.sharding_group %arg0 group_id = 8 : tensor<4xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={} (%arg1: tensor<4xf32>) {
    sdy.sharding_group %arg1 group_id = 8 : tensor<4xf32>
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  absl::Status status = importShardingGroups(*module);
  REQUIRE(!status.ok());
  CHECK_THAT(message(status),
             Catch::StartsWith("test.mlir:6:5: error:") &&
                 Catch::EndsWith("cannot cross ManualComputationOp boundaries "
                                 "for groupId: 8"));
}

}  // namespace
}  // namespace shardkit
