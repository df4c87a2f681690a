// The partitioner's passes: from a sharded program over global shapes to the
// program every device runs. registerPartitionPasses() adds them to the pass
// registry (shardkit/passes/pass.h) under the reference's sdy_opt names.
#ifndef SHARDKIT_PARTITION_PASSES_H_
#define SHARDKIT_PARTITION_PASSES_H_

#include <cstdint>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// -sdy-convert-global-to-local: every tensor gets its local type (what one
// device holds under its sharding), the sdy collectives become StableHLO
// collectives over device-id replica groups, sharded constants and iotas
// become the device's piece, found from its id (partition_id, or replica_id
// when replica_count > 1), and manual computations are inlined.
// docs/partition.md lists what each op becomes.
struct ConvertGlobalToLocalOptions {
  // One all_gather per gathered dimension instead of one over all of them.
  bool per_dim_all_gather = false;
  // A reduce_scatter over several dimensions as one reduce_scatter on a
  // combined leading dimension instead of an all_reduce and a slice.
  bool combine_multi_dimension_reduce_scatter = false;
  // Replica groups as mesh axes (#stablehlo.replica_group_mesh_axes) where
  // no sub-axis is involved, instead of device ids.
  bool enable_rgv3 = false;
  int64_t replica_count = 1;
  int64_t partition_count = 1;
};
absl::Status convertGlobalToLocal(Module& module,
                                  const ConvertGlobalToLocalOptions& options);

// -sdy-pad-for-divisibility: every tensor whose sharded dimension is not a
// multiple of its shard count gets a type rounded up to one (a padded
// type): slices widen, pads shrink their high padding, collectives pad their
// operand and trim what they gather, contractions mask their padding with
// zeros. Function arguments and results must be divisible already.
absl::Status padForDivisibility(Module& module);

// -sdy-resolve-permutation-factors: an op whose sharding rule has a sharded
// permutation factor (pad, slice, reverse, ...), or a reshape whose
// shardings do not divide its dimensions, is made local by resharding
// those dimensions to replicated around it (docs/partition.md).
struct ResolvePermutationFactorsOptions {
  // Accepted as the reference's; halo exchange is not built yet, so both
  // settings resolve by replication.
  bool enable_halo_exchange = true;
  int64_t replica_count = 1;
  int64_t partition_count = 1;
};
absl::Status resolvePermutationFactors(
    Module& module, const ResolvePermutationFactorsOptions& options);

// -sdy-partitioner-pipeline: the partitioner's steps after propagation, as
// the reference's executable partitioner tests run them:
// -sdy-insert-explicit-reshards=enable-full-version=true,
// -sdy-resolve-permutation-factors, -sdy-reshard-to-collectives,
// -sdy-pad-for-divisibility, -sdy-resolve-single-device-sharding,
// -sdy-convert-global-to-local and -sdy-drop-sharding-and-mesh.
struct PartitionerPipelineOptions {
  bool enable_halo_exchange = true;
  int64_t replica_count = 1;
  int64_t partition_count = 1;
};
absl::Status partitionerPipeline(Module& module,
                                 const PartitionerPipelineOptions& options);

// Adds the partition layer's passes to the registry (once; later calls do
// nothing).
void registerPartitionPasses();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PARTITION_PASSES_H_
