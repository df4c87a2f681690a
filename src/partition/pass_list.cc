// The partition layer's passes, registered with their sdy_opt names and
// options (shardkit/partition/passes.h).
#include "shardkit/partition/passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"

namespace shardkit {
namespace {

void registerConvertGlobalToLocalPass() {
  registerPass(PassInfo{
      "sdy-convert-global-to-local",
      "Converts an SDY program from global shapes to local shapes: local "
      "tensor types, StableHLO collectives over replica groups, the device's "
      "pieces of constants and iotas from its id.",
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
        PassOptionKind::kBool},
       {"replica-count", "number of replicas (default 1)",
        PassOptionKind::kInt},
       {"partition-count", "number of partitions (default 1)",
        PassOptionKind::kInt}},
      [](Module& module, const PassOptions& pass) -> absl::Status {
        ConvertGlobalToLocalOptions options;
        SK_ASSIGN_OR_RETURN(options.per_dim_all_gather,
                            pass.getBool("per-dim-all-gather", false));
        SK_ASSIGN_OR_RETURN(
            options.combine_multi_dimension_reduce_scatter,
            pass.getBool("combine-multi-dimension-reduce-scatter", false));
        SK_ASSIGN_OR_RETURN(options.enable_rgv3,
                            pass.getBool("enable-rgv3", false));
        SK_ASSIGN_OR_RETURN(options.replica_count,
                            pass.getInt("replica-count", 1));
        SK_ASSIGN_OR_RETURN(options.partition_count,
                            pass.getInt("partition-count", 1));
        return convertGlobalToLocal(module, options);
      }});
}

}  // namespace

void registerPartitionPasses() {
  static const bool registered = [] {
    registerConvertGlobalToLocalPass();
    return true;
  }();
  (void)registered;
}

}  // namespace shardkit
