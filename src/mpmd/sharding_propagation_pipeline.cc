// -mpmd-sharding-propagation-pipeline: SPMD sharding propagation of an mpmd
// program, inside and across meshes, with shardkit's one sdy propagation
// engine. The mpmd ops take part in it as the sdy layer knows them: a
// fragment is a data-flow op like a named computation (its body arguments
// and results own edges, their shardings in in_shardings/out_shardings), a
// loop like a while, a transfer an op with a pointwise rule (none between
// meshes of different shapes), and a mesh tensor value is seen as its
// global tensor. After propagation the mpmd passes fix what sdy leaves
// (unreduced out_shardings, user shardings at the entry point, reshards on
// transfers) and move the shardings into the mesh tensor types.
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/pipeline.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/sharding_utils.h"

namespace shardkit::mpmd {
namespace {

// The pass of the common family that gives each returned value its own
// producer (run when it is registered): a value returned twice may get two
// shardings.
absl::Status uniquifyFunctionInputsOutputs(Module& module) {
  constexpr std::string_view kUniquify =
      "mpmd-uniquify-function-inputs-outputs";
  const PassInfo* pass = findPass(kUniquify);
  if (!pass) return absl::OkStatus();
  PassOptions options;
  for (const PassOption& option : pass->options) {
    if (option.name == "use-transfer-instead-of-fragment") {
      SK_ASSIGN_OR_RETURN(
          options, PassOptions::parse("use-transfer-instead-of-fragment=true"));
    }
  }
  PassRunOptions run;
  run.verify_after = false;
  return runPass(module, kUniquify, options, run);
}

}  // namespace

absl::Status shardingPropagationPipeline(Module& module) {
  SK_RETURN_IF_ERROR(uniquifyFunctionInputsOutputs(module));
  PipelineOptions sdy;
  sdy.export_options.avoid_export_for_partitioning = true;
  SK_RETURN_IF_ERROR(runPropagationPipeline(module, sdy));
  mpmd_internal::makeEdgeShardingsDivisible(module);
  SK_RETURN_IF_ERROR(populateUnreducedOutSharding(module));
  SK_RETURN_IF_ERROR(enforceUserShardings(module));
  SK_RETURN_IF_ERROR(extractReshardsFromInterMeshTransfers(module));
  SK_RETURN_IF_ERROR(convertSdyShardingsToMpmdTypes(module));
  SK_RETURN_IF_ERROR(convertSdyConstants(module));
  SK_RETURN_IF_ERROR(foldTrivialOps(module));
  return simplifyProgram(module);
}

}  // namespace shardkit::mpmd
