// -sdy-remove-size-one-axes.
#include <algorithm>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/passes/import_passes.h"
#include "src/passes/import/sharding_walker.h"

namespace shardkit {
namespace {

bool hasSizeOneAxis(const Mesh& mesh) {
  return std::any_of(mesh.axes.begin(), mesh.axes.end(),
                     [](const MeshAxis& axis) { return axis.size == 1; });
}

// Removes the axes of size 1. Sub-axes that a size-1 axis kept apart
// (`"a":(1)2, "b", "a":(2)2`) become adjacent and are merged: the reference
// leaves them apart, which its verifier then rejects.
void eraseSizeOne(AxisRefVector& axes, const Mesh& mesh) {
  size_t before = axes.size();
  axes.erase(std::remove_if(axes.begin(), axes.end(),
                            [&](const AxisRef& axis) {
                              return mesh.hasAxis(axis.name) &&
                                     axis.size(mesh) == 1;
                            }),
             axes.end());
  if (axes.size() != before) mergeAdjacentSubAxes(axes, mesh);
}

}  // namespace

TensorSharding removeSizeOneAxes(const TensorSharding& sharding,
                                 const Mesh& mesh) {
  TensorSharding result = sharding;
  for (DimensionSharding& dim : result.dim_shardings) {
    eraseSizeOne(dim.axes, mesh);
    // A closed dimension without axes can't have a priority (it would mean
    // nothing to propagation, and the verifier rejects it).
    if (dim.axes.empty() && dim.is_closed) dim.priority.reset();
  }
  eraseSizeOne(result.replicated_axes, mesh);
  eraseSizeOne(result.unreduced_axes, mesh);
  return result;
}

absl::Status removeSizeOneAxes(Module& module) {
  MeshTable meshes = module.meshTable();
  // As in the reference, only a module with a mesh symbol that has an axis of
  // size 1 is rewritten (then inlined meshes are too).
  bool any = false;
  for (Op op : module.body()) {
    const Mesh* mesh =
        isa<sdy::MeshOp>(op) ? op.attr("mesh").as<Mesh>() : nullptr;
    any = any || (mesh && hasSizeOneAxis(*mesh));
  }
  if (!any) return absl::OkStatus();
  import_internal::transformShardings(
      module,
      [&](const TensorSharding& sharding,
          const import_internal::ShardingSite&) {
        const Mesh* mesh = meshes.resolve(sharding);
        return mesh ? removeSizeOneAxes(sharding, *mesh) : sharding;
      },
      [](const import_internal::ShardingSite&) { return true; });
  return absl::OkStatus();
}

}  // namespace shardkit
