// all_reduce followed by all_slice becomes a reduce_scatter (and an all_slice
// of what is left to slice): the reference's reduce-scatter fusion.
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/ir/module.h"
#include "src/passes/canonicalize/patterns.h"

namespace shardkit::canonicalize_internal {
namespace {

using sdy::AllReduceOp;
using sdy::AllSliceOp;
using sdy::ReduceScatterOp;

struct Fusion {
  ListOfAxisRefLists reduce_scatter_axes;
  std::optional<ListOfAxisRefLists> residual_slicing_axes;
  TensorSharding out_sharding;
};

// Each dimension reduce-scatters the longest prefix of its slicing axes that
// are reduction axes; every reduction axis must be used so.
std::optional<Fusion> planFusion(AllReduceOp reduce, AllSliceOp slice,
                                 const Mesh& mesh) {
  const AxisRefVector& reduction = reduce.axes().items;
  absl::flat_hash_set<AxisRef> remaining(reduction.begin(), reduction.end());
  Fusion fusion;
  ListOfAxisRefLists residual;
  bool has_residual = false;
  for (const AxisRefList& dim : slice.axes()) {
    size_t i = 0;
    AxisRefList scattered;
    while (i < dim.items.size() && remaining.erase(dim.items[i]) == 1) {
      scattered.items.push_back(dim.items[i++]);
    }
    AxisRefList rest(AxisRefVector(dim.items.begin() + i, dim.items.end()));
    has_residual |= !rest.items.empty();
    fusion.reduce_scatter_axes.items.push_back(std::move(scattered));
    residual.items.push_back(std::move(rest));
  }
  if (!remaining.empty()) return std::nullopt;
  if (has_residual) fusion.residual_slicing_axes = std::move(residual);

  const TensorSharding& reduce_out = reduce.outSharding();
  std::optional<TensorSharding> operand = shardingOf(reduce.tensor());
  size_t rank = fusion.reduce_scatter_axes.size();
  TensorSharding out;
  out.mesh = reduce_out.mesh;
  for (size_t d = 0; d < rank; ++d) {
    AxisRefVector axes;
    if (operand && d < operand->dim_shardings.size()) {
      axes = operand->dim_shardings[d].axes;
    }
    appendAxes(axes, fusion.reduce_scatter_axes[d], mesh);
    out.dim_shardings.emplace_back(std::move(axes), /*is_closed=*/true);
  }
  out.replicated_axes = slice.outSharding().replicated_axes;
  out.unreduced_axes = slice.outSharding().unreduced_axes;
  fusion.out_sharding = std::move(out);
  return fusion;
}

// The all_slice users of `reduce` all slice the same axes, `slice` first.
bool slicesAlike(AllReduceOp reduce, AllSliceOp slice) {
  for (const Value::Use& use : reduce.result().uses()) {
    auto other = dynCast<AllSliceOp>(use.user());
    if (!other || other.axes() != slice.axes()) return false;
    if (other.op() != slice.op() && isBeforeInBlock(other, slice)) return false;
  }
  return true;
}

bool reduceScatterFusion(Op op, PatternRewriter& rewriter) {
  AllSliceOp slice(op);
  auto reduce = dynCast<AllReduceOp>(slice.tensor().definingOp());
  if (!reduce || !slicesAlike(reduce, slice)) return false;
  MeshTable meshes = rewriter.module().meshTable();
  const Mesh* mesh = meshes.resolve(reduce.outSharding());
  if (!mesh) return false;
  std::optional<Fusion> fusion = planFusion(reduce, slice, *mesh);
  if (!fusion) return false;

  OperationState scatter(ReduceScatterOp::opName());
  scatter.operands = {reduce.tensor()};
  scatter.result_types = {reduce.result().type()};
  scatter.location = reduce->location();
  scatter.addAttr("reduce_scatter_axes",
                  Attribute::of(fusion->reduce_scatter_axes));
  scatter.addAttr("out_sharding", Attribute::of(fusion->out_sharding));
  if (const Attribute& kind = reduce->attr("reduction")) {
    scatter.addAttr("reduction", kind);
  }
  Value result = rewriter.createOpBefore(op, scatter).result(0);
  if (fusion->residual_slicing_axes) {
    OperationState rest(AllSliceOp::opName());
    rest.operands = {result};
    rest.result_types = {op.result(0).type()};
    rest.addAttr("slicing_axes", Attribute::of(*fusion->residual_slicing_axes));
    rest.addAttr("out_sharding", Attribute::of(slice.outSharding()));
    result = rewriter.createOpBefore(op, rest).result(0);
  }
  std::vector<Op> slices;
  for (const Value::Use& use : reduce.result().uses()) {
    slices.push_back(use.user());
  }
  for (Op user : slices) rewriter.replaceOp(user, result);
  rewriter.eraseOp(reduce);
  return true;
}

}  // namespace

void registerReduceScatterFusion() {
  registerCanonicalizationPattern(AllSliceOp::opName(), reduceScatterFusion,
                                  kCollectiveLabel);
}

}  // namespace shardkit::canonicalize_internal
