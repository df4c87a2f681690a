#include "shardkit/dialect/sdy/computations.h"

#include <vector>

#include "shardkit/dialect/sdy/data_flow_shapes.h"
#include "shardkit/dialect/sdy/sdy_ops.h"

namespace shardkit {
namespace {

// How many leading axes of `dim` are manual.
size_t manualPrefix(const DimensionSharding& dim, const ManualAxes& manual) {
  size_t n = 0;
  while (n < dim.axes.size() && manual.contains(dim.axes[n].name)) ++n;
  return n;
}

AxisRefVector freeAxes(const AxisRefVector& axes, const ManualAxes& manual) {
  AxisRefVector kept;
  for (const AxisRef& axis : axes) {
    if (!manual.contains(axis.name)) kept.push_back(axis);
  }
  return kept;
}

}  // namespace

Op computationOfArgument(Value arg) {
  if (!arg || !arg.isBlockArgument()) return Op();
  Block block = arg.ownerBlock();
  Op parent = block.parentOp();
  if (!isa<sdy::ManualComputationOp, sdy::NamedComputationOp>(parent) &&
      registeredDataFlowShape(parent) != DataFlowShape::kComputation) {
    return Op();
  }
  if (parent.numRegions() != 1 || !(parent.region(0).front() == block)) {
    return Op();
  }
  return parent;
}

ManualAxes manualAxesOf(Op op) {
  if (auto manual = dynCast<sdy::ManualComputationOp>(op)) {
    return manual.manualAxes();
  }
  return ManualAxes();
}

TensorSharding withoutManualAxes(const TensorSharding& sharding,
                                 const ManualAxes& manual) {
  if (manual.empty()) return sharding;
  TensorSharding local = sharding;
  for (DimensionSharding& dim : local.dim_shardings) {
    dim.axes.erase(dim.axes.begin(),
                   dim.axes.begin() + manualPrefix(dim, manual));
  }
  local.replicated_axes = freeAxes(sharding.replicated_axes, manual);
  local.unreduced_axes = freeAxes(sharding.unreduced_axes, manual);
  return local;
}

TensorSharding withManualAxesOf(const TensorSharding& outer,
                                const TensorSharding& local,
                                const ManualAxes& manual) {
  TensorSharding global = local;
  for (size_t d = 0;
       d < global.dim_shardings.size() && d < outer.dim_shardings.size(); ++d) {
    const DimensionSharding& outer_dim = outer.dim_shardings[d];
    AxisRefVector& axes = global.dim_shardings[d].axes;
    axes.insert(axes.begin(), outer_dim.axes.begin(),
                outer_dim.axes.begin() + manualPrefix(outer_dim, manual));
  }
  global.replicated_axes = outer.replicated_axes;
  global.unreduced_axes = outer.unreduced_axes;
  global.unreduced_kind = outer.unreduced_kind;
  return global;
}

}  // namespace shardkit
