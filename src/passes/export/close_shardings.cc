// -sdy-close-shardings.
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "src/passes/import/sharding_walker.h"

namespace shardkit {
namespace {

// Every dimension closed (axes and priority kept), no replicated axes (manual
// ones of a manual computation included, as in the reference); the unreduced
// axes stay: they are values not yet reduced, not a propagation choice.
TensorSharding closedLike(const TensorSharding& sharding,
                          const import_internal::ShardingSite&) {
  TensorSharding closed = sharding;
  for (DimensionSharding& dim : closed.dim_shardings) dim.is_closed = true;
  closed.replicated_axes.clear();
  return closed;
}

}  // namespace

absl::Status closeShardings(Module& module) {
  import_internal::transformShardings(
      module, closedLike,
      [](const import_internal::ShardingSite&) { return true; });
  return absl::OkStatus();
}

}  // namespace shardkit
