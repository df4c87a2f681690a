// The partition layer's passes, registered with their sdy_opt names and
// options (shardkit/partition/passes.h).
#include <vector>

#include "shardkit/partition/passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"

namespace shardkit {
namespace {

// `options` and the device counts every partition pass takes.
std::vector<PassOption> withDeviceCounts(std::vector<PassOption> options) {
  options.push_back({"replica-count", "number of replicas (default 1)",
                     PassOptionKind::kInt});
  options.push_back({"partition-count", "number of partitions (default 1)",
                     PassOptionKind::kInt});
  return options;
}

// Reads the counts withDeviceCounts declares into `options`.
template <typename Options>
absl::Status readDeviceCounts(const PassOptions& pass, Options& options) {
  SK_ASSIGN_OR_RETURN(options.replica_count, pass.getInt("replica-count", 1));
  SK_ASSIGN_OR_RETURN(options.partition_count,
                      pass.getInt("partition-count", 1));
  return absl::OkStatus();
}

void registerConvertGlobalToLocalPass() {
  registerPass(PassInfo{
      "sdy-convert-global-to-local",
      "Converts an SDY program from global shapes to local shapes: local "
      "tensor types, StableHLO collectives over replica groups, the device's "
      "pieces of constants and iotas from its id.",
      withDeviceCounts(
          {{"per-dim-all-gather",
            "one all_gather per gathered dimension (default false)",
            PassOptionKind::kBool},
           {"combine-multi-dimension-reduce-scatter",
            "a reduce_scatter of several dimensions as one reduce_scatter "
            "(default false)",
            PassOptionKind::kBool},
           {"enable-rgv3",
            "replica groups as mesh axes (ReplicaGroupV3) where no sub-axis is "
            "involved (default false)",
            PassOptionKind::kBool}}),
      [](Module& module, const PassOptions& pass) -> absl::Status {
        ConvertGlobalToLocalOptions options;
        SK_ASSIGN_OR_RETURN(options.per_dim_all_gather,
                            pass.getBool("per-dim-all-gather", false));
        SK_ASSIGN_OR_RETURN(
            options.combine_multi_dimension_reduce_scatter,
            pass.getBool("combine-multi-dimension-reduce-scatter", false));
        SK_ASSIGN_OR_RETURN(options.enable_rgv3,
                            pass.getBool("enable-rgv3", false));
        SK_RETURN_IF_ERROR(readDeviceCounts(pass, options));
        return convertGlobalToLocal(module, options);
      }});
}

void registerPadForDivisibilityPass() {
  registerPass(PassInfo{
      "sdy-pad-for-divisibility",
      "Pads every tensor whose sharded dimensions are not divisible by their "
      "shard counts up to the next multiple, so that every device holds an "
      "equal piece.",
      {},
      [](Module& module, const PassOptions&) -> absl::Status {
        return padForDivisibility(module);
      }});
}

void registerResolvePermutationFactorsPass() {
  registerPass(PassInfo{
      "sdy-resolve-permutation-factors",
      "Makes every op with a sharded permutation factor (and every reshape "
      "whose shardings do not divide its dimensions) local by resharding "
      "those dimensions to replicated around it.",
      withDeviceCounts(
          {{"enable-halo-exchange",
            "resolve pads, slices and reverses by halo exchange (default true; "
            "not built yet: resolved by replication)",
            PassOptionKind::kBool}}),
      [](Module& module, const PassOptions& pass) -> absl::Status {
        ResolvePermutationFactorsOptions options;
        SK_ASSIGN_OR_RETURN(options.enable_halo_exchange,
                            pass.getBool("enable-halo-exchange", true));
        SK_RETURN_IF_ERROR(readDeviceCounts(pass, options));
        return resolvePermutationFactors(module, options);
      }});
}

void registerPartitionerPipeline() {
  registerPass(PassInfo{
      "sdy-partitioner-pipeline",
      "Partitions a propagated module into the program every device runs: "
      "explicit reshards, permutation factors, collectives, padding, "
      "single-device ops, local shapes; then drops shardings and meshes.",
      withDeviceCounts({{"enable-halo-exchange",
                         "as -sdy-resolve-permutation-factors (default true)",
                         PassOptionKind::kBool}}),
      [](Module& module, const PassOptions& pass) -> absl::Status {
        PartitionerPipelineOptions options;
        SK_ASSIGN_OR_RETURN(options.enable_halo_exchange,
                            pass.getBool("enable-halo-exchange", true));
        SK_RETURN_IF_ERROR(readDeviceCounts(pass, options));
        return partitionerPipeline(module, options);
      }});
}

}  // namespace

void registerPartitionPasses() {
  static const bool registered = [] {
    registerConvertGlobalToLocalPass();
    registerPadForDivisibilityPass();
    registerResolvePermutationFactorsPass();
    registerPartitionerPipeline();
    return true;
  }();
  (void)registered;
}

}  // namespace shardkit
