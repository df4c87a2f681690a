// The pipelines as C++ calls and text pass pipelines.
#include "shardkit/passes/pipeline.h"

#include <catch2/catch.hpp>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/strings.h"
#include "tests/unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::parse;

constexpr std::string_view kModule = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %a : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
})";

std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

TEST_CASE("runPropagationPipeline is -sdy-propagation-pipeline") {
  std::unique_ptr<Module> typed = parse(kModule);
  std::unique_ptr<Module> by_name = parse(kModule);
  REQUIRE(runPropagationPipeline(*typed).ok());
  REQUIRE(runPass(*by_name, "sdy-propagation-pipeline", {}).ok());
  CHECK(printModule(*typed) == printModule(*by_name));
  CHECK(printModule(*typed).find(R"(<@mesh, [{"x"}, {}]>]>)") !=
        std::string::npos);

  std::unique_ptr<Module> basic = parse(kModule);
  std::unique_ptr<Module> basic_by_name = parse(kModule);
  PipelineOptions options;
  options.propagation.strategy = PropagationStrategy::kBasic;
  options.propagation.keep_sharding_rules = true;
  REQUIRE(runPropagationPipeline(*basic, options).ok());
  absl::StatusOr<PassOptions> pass_options =
      PassOptions::parse("propagation-strategy=basic keep-sharding-rules=true");
  REQUIRE(pass_options.ok());
  REQUIRE(
      runPass(*basic_by_name, "sdy-propagation-pipeline", *pass_options).ok());
  CHECK(printModule(*basic) == printModule(*basic_by_name));
  CHECK(printModule(*basic).find("sdy.sharding_rule") != std::string::npos);
}

TEST_CASE("The import pipeline can read GSPMD shardings first") {
  std::unique_ptr<Module> module = parse(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
})");
  ImportPipelineOptions options;
  options.gspmd_shardings = true;
  REQUIRE(runImportPipeline(*module, options).ok());
  CHECK(
      printModule(*module).find(
          R"(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})") !=
      std::string::npos);
}

TEST_CASE("Text pass pipelines run in order and are checked first") {
  std::unique_ptr<Module> module = parse(kModule);
  std::string before = printModule(*module);
  CHECK(messageOf(runPassPipeline(*module, "sdy-add-data-flow-edges,nope")) ==
        "unknown pass 'nope' in pipeline 'sdy-add-data-flow-edges,nope'");
  CHECK(messageOf(runPassPipeline(*module, "sdy-basic-propagate{bad=1}")) ==
        "pass '-sdy-basic-propagate' has no option 'bad'");
  CHECK(messageOf(runPassPipeline(*module, "sdy-basic-propagate{x")) ==
        "invalid pass pipeline 'sdy-basic-propagate{x': offset 19: "
        "unbalanced '{': no matching '}'");
  CHECK(printModule(*module) == before);  // nothing ran
  REQUIRE(runPassPipeline(*module,
                          "builtin.module(sdy-basic-propagate{"
                          "keep-sharding-rules=true}, sdy-drop-sharding-rules)")
              .ok());
  CHECK(printModule(*module).find(R"([<@mesh, [{"x", ?}, {?}]>])") !=
        std::string::npos);
  CHECK(printModule(*module).find("sharding_rule") == std::string::npos);
}

TEST_CASE("parsePassPipeline checks a pipeline without running it") {
  absl::StatusOr<std::vector<PipelinePass>> passes = parsePassPipeline(
      "builtin.module(sdy-add-data-flow-edges, "
      "sdy-propagation-pipeline{enable-insert-explicit-collectives=true})");
  REQUIRE(passes.ok());
  REQUIRE(passes->size() == 2);
  CHECK((*passes)[0].name == "sdy-add-data-flow-edges");
  CHECK((*passes)[1].name == "sdy-propagation-pipeline");
  CHECK((*passes)[1].options.get("enable-insert-explicit-collectives") ==
        "true");
  // Mistyped names get the nearest registered one.
  CHECK(messageOf(parsePassPipeline("sdy-basic-propagat").status()) ==
        "unknown pass 'sdy-basic-propagat' in pipeline 'sdy-basic-propagat'; "
        "did you mean 'sdy-basic-propagate'?");
  CHECK(messageOf(parsePassPipeline("sdy-basic-propagate{keep-sharding-rule}")
                      .status()) ==
        "pass '-sdy-basic-propagate' has no option 'keep-sharding-rule'; did "
        "you mean 'keep-sharding-rules'?");
}

}  // namespace
}  // namespace shardkit
