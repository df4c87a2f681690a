// The mpmd sharding propagation passes, registered with their mpmd_opt
// names.
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerShardingPropagationPasses() {
  registerPass(optionlessPass(
      "mpmd-populate-unreduced-out-sharding",
      "Gives fragment out_shardings the unreduced axes of the sharding "
      "constraints their results come from",
      populateUnreducedOutSharding));
  registerPass(optionlessPass(
      "mpmd-extract-reshards-from-inter-mesh-transfers",
      "Moves the resharding of a transfer into a fragment on the producer "
      "or consumer side",
      extractReshardsFromInterMeshTransfers));
  registerPass(optionlessPass(
      "mpmd-convert-sdy-shardings-to-mpmd-types",
      "Moves the shardings of fragments, transfers, loops and function "
      "arguments into their mesh tensor types",
      convertSdyShardingsToMpmdTypes));
  registerPass(optionlessPass(
      "mpmd-enforce-user-shardings",
      "Gives the fragments and transfers next to the entry point's arguments "
      "and results the user's shardings",
      enforceUserShardings));
  registerPass(optionlessPass("mpmd-convert-sdy-constants",
                              "Turns sdy.constant ops into stablehlo.constant",
                              convertSdyConstants));
  registerPass(
      optionlessPass("mpmd-fold-trivial-ops",
                     "Folds selects with a constant predicate and adds of zero",
                     foldTrivialOps));
  registerPass(optionlessPass(
      "mpmd-simplify-program",
      "Removes duplicate, pass-through and unused fragment results and "
      "operands",
      simplifyProgram));
  registerPass(optionlessPass(
      "mpmd-sharding-propagation-pipeline",
      "Propagates shardings through an mpmd program with sdy propagation and "
      "moves them into the mesh tensor types",
      shardingPropagationPipeline));
}

}  // namespace shardkit::mpmd::mpmd_internal
