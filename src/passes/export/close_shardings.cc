// -sdy-close-shardings.
#include <string_view>
#include <vector>

#include "shardkit/core/status_macros.h"
#include "shardkit/ir/computations.h"
#include "shardkit/ir/sdy_ops.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "src/passes/import/sharding_walker.h"

namespace shardkit {
namespace {

std::vector<AxisRef> keepManual(const std::vector<AxisRef>& axes,
                                const ManualAxes& manual) {
  std::vector<AxisRef> kept;
  for (const AxisRef& axis : axes) {
    if (manual.contains(axis.name)) kept.push_back(axis);
  }
  return kept;
}

bool onManualComputation(const import_internal::ShardingSite& site) {
  return isa<sdy::ManualComputationOp>(site.op) &&
         (site.attr == "in_shardings" || site.attr == "out_shardings");
}

// Every dimension closed (axes and priority kept); replicated axes dropped,
// except the manual axes of a manual computation's shardings, which say how
// the computation is split rather than what propagation found. Unreduced axes
// stay: they are partial sums explicit reshards must still reduce.
TensorSharding closedLike(const TensorSharding& sharding,
                          const import_internal::ShardingSite& site) {
  TensorSharding closed = sharding;
  for (DimensionSharding& dim : closed.dim_shardings) dim.is_closed = true;
  ManualAxes manual;
  if (onManualComputation(site)) {
    manual = manualAxesOf(site.op);
  }
  closed.replicated_axes = keepManual(sharding.replicated_axes, manual);
  return closed;
}

}  // namespace

absl::Status closeShardings(Module& module) {
  import_internal::transformShardings(
      module, closedLike, [](const import_internal::ShardingSite& site) {
        return !onManualComputation(site);
      });
  return absl::OkStatus();
}

}  // namespace shardkit
