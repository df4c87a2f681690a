// -sdy-unflatten-call-graph: which copy each call ends up calling.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/export_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::opsNamed;
using import_testing::parse;
using import_testing::requireOk;

// @main calls @f (sharded {"x"}), then @f_0 (a copy of @f, sharded like
// `copy_sharding`), then @f_1 (a copy sharded {"y"}) twice.
std::string module(std::string_view copy_sharding) {
  std::string f = R"(
func.func private @NAME(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{SHARD}]>}) -> tensor<8xf32> ATTRS {
  return %a : tensor<8xf32>
})";
  auto copy = [&](std::string name, std::string shard, bool is_copy) {
    std::string text = f;
    text.replace(text.find("NAME"), 4, name);
    text.replace(text.find("SHARD"), 5, shard);
    text.replace(text.find("ATTRS"), 5,
                 is_copy ? "attributes {sdy.original_func_name = \"f\"}" : "");
    return text;
  };
  return R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @f_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = call @f_1(%2) : (tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
})" + copy("f", "\"x\"", false) +
         copy("f_0", std::string(copy_sharding), true) +
         copy("f_1", "\"y\"", true);
}

std::vector<std::string> callees(Module& m) {
  std::vector<std::string> names;
  for (Op call : opsNamed(m, "func.call")) {
    names.emplace_back(func::CallOp(call).callee());
  }
  return names;
}

TEST_CASE("copies sharded alike merge into the first one called") {
  auto m = parse(module("\"x\""));
  requireOk(unflattenCallGraph(*m, /*dedup_functions_fully=*/false));
  CHECK(callees(*m) == std::vector<std::string>{"f", "f", "f_1", "f_1"});
  for (Op func : m->functions()) {
    CHECK_FALSE(func.hasAttr("sdy.original_func_name"));
  }
}

TEST_CASE("copies sharded differently stay apart unless deduplicated fully") {
  auto m = parse(module("\"y\""));
  requireOk(unflattenCallGraph(*m, false));
  // f_0 and f_1 are both sharded {"y"}: they merge; f stays.
  CHECK(callees(*m) == std::vector<std::string>{"f", "f_0", "f_0", "f_0"});

  // Fully: one copy for all; the sharding called most often wins ({"y"}:
  // three calls), represented by the copy whose call first made it lead.
  auto fully = parse(module("\"y\""));
  requireOk(unflattenCallGraph(*fully, true));
  CHECK(callees(*fully) ==
        std::vector<std::string>{"f_1", "f_1", "f_1", "f_1"});
}

TEST_CASE("a call to a missing function is an error") {
  // The verifier rejects such a module; a pass may still meet one that an
  // earlier pass left behind.
  auto m = parse(R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @main(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  opsNamed(*m, "func.call")
      .front()
      .setAttr("callee", Attribute::symbolRef("nowhere"));
  CHECK_FALSE(unflattenCallGraph(*m, false).ok());
}

}  // namespace
}  // namespace shardkit
