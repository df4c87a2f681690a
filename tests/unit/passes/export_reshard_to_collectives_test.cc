// -sdy-reshard-to-collectives on the graph IR: which value the collectives
// start from, what stays, and the pass's registration and option.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::parse;
using import_testing::requireOk;

// The ops of the first function, one a line: name, operand and out sharding.
std::string bodyOps(Module& module) {
  std::string text;
  FuncOp func(module.functions().front());
  for (Op op : func.body().ops()) {
    text += std::string(op.name());
    for (Value operand : op.operands()) {
      text += operand.isBlockArgument()
                  ? " %arg"
                  : " %" + std::string(operand.definingOp().name());
    }
    for (const char* attr : {"out_sharding", "sharding"}) {
      if (const TensorSharding* s = op.attr(attr).as<TensorSharding>()) {
        text += " " + toString(*s);
      }
    }
    text += "\n";
  }
  return text;
}

std::string lowered(std::string_view module_text,
                    ReshardToCollectivesOptions options = {}) {
  auto module = parse(module_text);
  requireOk(reshardToCollectives(*module, options));
  return bodyOps(*module);
}

TEST_CASE("collectives start from the value behind propagation barriers") {
  CHECK(lowered(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)") == "sdy.propagation_barrier %arg\n"
       "sdy.all_to_all %arg <@mesh, [{}, {\"x\"}]>\n"
       "func.return %sdy.all_to_all\n");
}

TEST_CASE("an input without a sharding is replicated on the reshard's mesh") {
  CHECK(lowered(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {?}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)") == "sdy.all_slice %arg <@mesh, [{\"y\"}, {}]>\n"
       "func.return %sdy.all_slice\n");
}

TEST_CASE("reshards to or from a single device stay") {
  CHECK(lowered(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @one = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@one, []>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.reshard %arg0 <@one, []> : tensor<8x8xf32>
  %1 = sdy.reshard %arg1 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
)") == "sdy.reshard %arg <@one, []>\n"
       "sdy.reshard %arg <@mesh, [{}, {\"y\"}]>\n"
       "func.return %sdy.reshard %sdy.reshard\n");
}

TEST_CASE("a reshard between meshes of other axes is an error") {
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @other = <["a"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@other, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  absl::Status status = reshardToCollectives(*module, {});
  REQUIRE_FALSE(status.ok());
  CHECK(import_testing::message(status) ==
        "test.mlir:5:3: error: 'sdy.reshard' op cannot be lowered to "
        "collectives: incompatible meshes");
}

TEST_CASE("keep-redundant-reshards keeps reshards that change nothing") {
  const char* text = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x", ?}, {"y"}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";
  CHECK(lowered(text) ==
        "sdy.collective_permute %arg <@mesh, [{\"y\"}, {\"x\"}]>\n"
        "func.return %sdy.collective_permute\n");
  auto module = parse(text);
  PassOptions options;
  options.set("keep-redundant-reshards", "true");
  requireOk(runPass(*module, "sdy-reshard-to-collectives", options));
  CHECK(bodyOps(*module) ==
        "sdy.reshard %arg <@mesh, [{\"x\", ?}, {\"y\"}]>\n"
        "sdy.collective_permute %sdy.reshard <@mesh, [{\"y\"}, {\"x\"}]>\n"
        "func.return %sdy.collective_permute\n");
  options.set("keep-redundant-reshards", "maybe");
  CHECK_FALSE(runPass(*module, "sdy-reshard-to-collectives", options).ok());
}

}  // namespace
}  // namespace shardkit
