// -sdy-manual-axes-cleanup.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/factor_propagation/common_mesh.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

std::vector<const TensorSharding*> pointers(
    const TensorShardingPerValue* list) {
  std::vector<const TensorSharding*> result;
  if (list) {
    for (const TensorSharding& s : list->items) result.push_back(&s);
  }
  return result;
}

// Adds the parts of the manual axes that `sharding` does not use (in a
// dimension, replicated or unreduced) to its replicated axes, in mesh order.
TensorSharding addUnusedManualAxes(const TensorSharding& sharding,
                                   const ManualAxes& manual,
                                   const CommonMesh& common) {
  AxisRefVector used = sharding.allAxes();
  AxisRefVector unused;
  for (AxisRef& axis : complementAxes(used, *common.mesh)) {
    if (manual.contains(axis.name)) unused.push_back(std::move(axis));
  }
  if (unused.empty()) return sharding;
  TensorSharding result = sharding;
  result.replicated_axes.insert(result.replicated_axes.end(), unused.begin(),
                                unused.end());
  sortAndMergeAxes(result.replicated_axes, *common.mesh);
  return result;
}

// Updates the in_shardings or out_shardings (`attr`) whose values have
// `types`; non-tensor values (tokens) keep theirs. A sharding that changes is
// bound to the common mesh (the one of the op's shardings, e.g. instead of an
// empty or inlined mesh).
void cleanupList(Op op, std::string_view attr, const std::vector<Type>& types,
                 const ManualAxes& manual, const CommonMesh& common) {
  const TensorShardingPerValue* list =
      op.attr(attr).as<TensorShardingPerValue>();
  if (!list) return;
  TensorShardingPerValue updated = *list;
  for (size_t i = 0; i < updated.size() && i < types.size(); ++i) {
    TypeKind kind = types[i].kind();
    if (kind != TypeKind::kRankedTensor && kind != TypeKind::kUnrankedTensor) {
      continue;
    }
    TensorSharding& s = updated[i];
    TensorSharding cleaned = addUnusedManualAxes(s, manual, common);
    if (cleaned == s) continue;
    cleaned.mesh = common.mesh_or_ref;
    s = std::move(cleaned);
  }
  if (!(updated == *list)) {
    op.setAttr(attr, Attribute::of(std::move(updated)));
  }
}

absl::Status cleanup(Op op, const MeshTable& meshes) {
  const TensorShardingPerValue* in =
      op.attr("in_shardings").as<TensorShardingPerValue>();
  const TensorShardingPerValue* out =
      op.attr("out_shardings").as<TensorShardingPerValue>();
  std::vector<const TensorSharding*> ins = pointers(in);
  std::vector<const TensorSharding*> outs = pointers(out);
  ManualAxes manual = manualAxesOf(op);
  if (ins.empty() && outs.empty()) {
    Block body = op.numRegions() ? op.region(0).front() : Block();
    bool body_empty = !body || body.numOps() <= 1;
    if (!manual.empty() && !body_empty) {
      return opError(op,
                     "has manual_axes when there are no in/out shardings and "
                     "the body is not empty");
    }
    return absl::OkStatus();
  }
  SK_ASSIGN_OR_RETURN(std::optional<CommonMesh> found,
                      findCommonMesh(ins, outs, meshes));
  if (!found) {
    return opError(op, "in/out shardings have no common mesh");
  }
  // Copied: the mesh may live in an attribute that is replaced below.
  const Mesh mesh = *found->mesh;
  const CommonMesh common{&mesh, found->mesh_or_ref};
  // Manual axes in mesh order.
  std::stable_sort(manual.items.begin(), manual.items.end(),
                   [&](const std::string& a, const std::string& b) {
                     return mesh.axisIndex(a) < mesh.axisIndex(b);
                   });
  if (!(manual == manualAxesOf(op))) {
    op.setAttr("manual_axes", Attribute::of(manual));
  }
  cleanupList(op, "in_shardings", op.operandTypes(), manual, common);
  cleanupList(op, "out_shardings", op.resultTypes(), manual, common);
  return absl::OkStatus();
}

}  // namespace

absl::Status cleanupManualAxes(Module& module) {
  if (!module.mayHaveOpsNamed(sdy::ManualComputationOp::opName())) {
    return absl::OkStatus();
  }
  MeshTable meshes = module.meshTable();
  std::vector<Op> ops;
  ir_internal::collectPreOrder(module.body(), ops);
  for (Op op : ops) {
    if (isa<sdy::ManualComputationOp>(op))
      SK_RETURN_IF_ERROR(cleanup(op, meshes));
  }
  return absl::OkStatus();
}

}  // namespace shardkit
