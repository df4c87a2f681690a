// -sdy-partitioner-pipeline: from a propagated module over global shapes to
// the program every device runs, the steps the reference's executable
// partitioner tests run (docs/partition.md).
#include "absl/status/status.h"
#include "shardkit/partition/passes.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/reshard_to_collectives.h"
#include "shardkit/support/status_macros.h"

namespace shardkit {

absl::Status partitionerPipeline(Module& module,
                                 const PartitionerPipelineOptions& options) {
  InsertExplicitReshardsOptions reshards;
  reshards.enable_full_version = true;
  SK_RETURN_IF_ERROR(insertExplicitReshards(module, reshards));
  ResolvePermutationFactorsOptions permutations;
  permutations.enable_halo_exchange = options.enable_halo_exchange;
  permutations.replica_count = options.replica_count;
  permutations.partition_count = options.partition_count;
  SK_RETURN_IF_ERROR(resolvePermutationFactors(module, permutations));
  SK_RETURN_IF_ERROR(reshardToCollectives(module, {}));
  SK_RETURN_IF_ERROR(padForDivisibility(module));
  ResolveSingleDeviceOptions single;
  single.replica_count = options.replica_count;
  single.partition_count = options.partition_count;
  SK_RETURN_IF_ERROR(resolveSingleDeviceSharding(module, single));
  ConvertGlobalToLocalOptions local;
  local.replica_count = options.replica_count;
  local.partition_count = options.partition_count;
  SK_RETURN_IF_ERROR(convertGlobalToLocal(module, local));
  return dropShardingAndMesh(module);
}

}  // namespace shardkit
