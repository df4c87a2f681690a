// -sdy-convert-global-to-local: gather and scatter. Sharded indexed operand
// dimensions make the indices local (minus the device's offset); a gather
// masks out what another device holds (its result is all-reduced after),
// and a scatter whose updates are sharded on dimensions the operand is not
// lets one device per group start from the operand and the others from the
// reduction's identity.
#include <algorithm>
#include <string>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/partition/global_to_local.h"
#include "src/partition/reduction_identity.h"

namespace shardkit::partition {
namespace {

bool contains(absl::Span<const int64_t> values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// The lowest (and, with `with_max`, highest) index each component of an
// index vector may take on this device: for an index into a dimension among
// `trivial` its shard's range, otherwise the whole global range.
struct Bounds {
  std::vector<Value> min, max;
};
absl::StatusOr<Bounds> trivialDimBounds(
    GlobalToLocal& c, HloEmitter& e, const Mesh& mesh,
    const TensorSharding& sharding, Type global_operand, Type local_operand,
    absl::Span<const int64_t> index_map, absl::Span<const int64_t> trivial,
    std::string_view element, bool with_max) {
  Bounds bounds;
  Type scalar = e.scalar(element);
  for (int64_t dim : index_map) {
    if (!contains(trivial, dim)) {
      bounds.min.push_back(e.splatInt(scalar, 0));
      if (with_max) {
        bounds.max.push_back(
            e.splatInt(scalar, global_operand.shape()[dim] - 1));
      }
      continue;
    }
    const int64_t shard = local_operand.shape()[dim];
    SK_ASSIGN_OR_RETURN(
        Value offset,
        c.dimensionOffset(e, mesh, sharding.dim_shardings[dim].axes, shard));
    offset = e.convert(offset, element);
    bounds.min.push_back(offset);
    if (with_max) {
      Value last = e.splatInt(scalar, shard - 1);
      bounds.max.push_back(e.binary(stablehlo::AddOp::kName, offset, last));
    }
  }
  return bounds;
}

// `indices` clamped to [0, global size - 1] of each indexed dimension.
Value clampToGlobal(HloEmitter& e, Value indices, Type global_operand,
                    absl::Span<const int64_t> index_map, int64_t ivd) {
  Type type = indices.type();
  auto like = [&](const std::vector<int64_t>& values) {
    if (ivd < type.rank() && values.size() > 1) {
      Value table = e.intTable(values, type.elementType());
      return e.broadcastInDim(table, type, {ivd});
    }
    return e.splatInt(type, values[0]);
  };
  std::vector<int64_t> max;
  for (int64_t dim : index_map) max.push_back(global_operand.shape()[dim] - 1);
  Value lo = like({0});
  Value hi = like(max);
  return e.clamp(lo, indices, hi);
}

// The bounds as a tensor of the indices' type (broadcast along the index
// vector dimension).
Value boundsTensor(HloEmitter& e, absl::Span<const Value> bounds, Type indices,
                   int64_t ivd) {
  if (ivd >= indices.rank() || indices.shape()[ivd] == 1) {
    return e.broadcastInDim(bounds[0], indices, {});
  }
  std::vector<Value> pieces;
  for (Value b : bounds) pieces.push_back(e.reshape(b, {1}));
  Value vector = e.concatenate(pieces, 0);
  return e.broadcastInDim(vector, indices, {ivd});
}

struct LocalIndices {
  Value indices;
  Value mask;  // null unless asked for (and needed)
};

// The local indices of a gather (clamped first, as a gather clamps) or a
// scatter (as they are, so that an index out of bounds stays out), and with
// `with_mask` whether each index lies in this device's shard: within its
// range for an indexed dimension, at offset 0 for one that is not indexed.
absl::StatusOr<LocalIndices> localIndices(
    GlobalToLocal& c, HloEmitter& e, bool gather, Value indices,
    const Mesh& mesh, const TensorSharding& sharding, Type global_operand,
    Type local_operand, const SliceDimensionNumbers& dims,
    absl::Span<const int64_t> trivial, bool with_mask) {
  const int64_t ivd = dims.index_vector_dim;
  Type type = indices.type();
  LocalIndices out{indices, Value()};
  const bool indexed =
      std::any_of(trivial.begin(), trivial.end(),
                  [&](int64_t d) { return contains(dims.index_map, d); });
  if (indexed) {
    Value base =
        gather ? clampToGlobal(e, indices, global_operand, dims.index_map, ivd)
               : indices;
    SK_ASSIGN_OR_RETURN(Bounds bounds,
                        trivialDimBounds(c, e, mesh, sharding, global_operand,
                                         local_operand, dims.index_map, trivial,
                                         type.elementType(), with_mask));
    Value lo = boundsTensor(e, bounds.min, type, ivd);
    Value hi = with_mask ? boundsTensor(e, bounds.max, type, ivd) : Value();
    out.indices = e.binary(stablehlo::SubtractOp::kName, base, lo);
    if (with_mask) {
      Value ge = e.compare("GE", base, lo);
      Value le = e.compare("LE", base, hi);
      out.mask = e.binary(stablehlo::AndOp::kName, ge, le);
    }
  }
  if (!with_mask) return out;
  Value partition_mask;
  for (int64_t dim : trivial) {
    if (contains(dims.index_map, dim)) continue;
    SK_ASSIGN_OR_RETURN(
        Value offset,
        c.dimensionOffset(e, mesh, sharding.dim_shardings[dim].axes,
                          local_operand.shape()[dim]));
    Value zero = e.splatInt(offset.type(), 0);
    Value at_zero = e.compare("EQ", offset, zero);
    partition_mask = partition_mask ? e.binary(stablehlo::AndOp::kName,
                                               partition_mask, at_zero)
                                    : at_zero;
  }
  if (partition_mask) {
    if (out.mask) {
      Value broadcast = e.broadcastInDim(partition_mask, out.mask.type(), {});
      out.mask = e.binary(stablehlo::AndOp::kName, out.mask, broadcast);
    } else {
      out.mask = partition_mask;
    }
  }
  return out;
}

}  // namespace

absl::Status convertGather(GlobalToLocal& c, Op op) {
  const TensorSharding* sharding = c.operandSharding(0);
  if (shardsNoDimension(sharding)) return c.localizeInPlace(op);
  const Mesh* mesh = c.meshOf(sharding);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  std::optional<GatherDimensionNumbers> dims =
      getGatherDimensionNumbers(op.attr("dimension_numbers"));
  std::optional<std::vector<int64_t>> sizes = op.attr("slice_sizes").intList();
  Type global = c.operandGlobalType(0);
  if (!dims || !sizes || static_cast<int64_t>(sizes->size()) != global.rank()) {
    return c.invariantError(op, "expected gather dimension numbers and sizes");
  }
  // Sharded dims of slice size 1 (not batching): each device holds some of
  // the indexed positions.
  std::vector<int64_t> trivial;
  AxisRefVector reduction;
  for (int64_t i = 0; i < global.rank(); ++i) {
    absl::Span<const AxisRef> axes = dimAxes(sharding, i);
    if (!axes.empty() && totalAxesSize(axes, *mesh) > 1 && (*sizes)[i] == 1 &&
        !contains(dims->input_batching_dims, i)) {
      trivial.push_back(i);
      reduction.insert(reduction.end(), axes.begin(), axes.end());
    }
  }
  // Other sharded dims are sliced whole: their slices shrink with the shards.
  std::vector<int64_t> local_sizes = *sizes;
  for (int64_t i = 0; i < global.rank(); ++i) {
    if (local_sizes[i] == 1 || contains(dims->input_batching_dims, i)) continue;
    absl::Span<const AxisRef> axes = dimAxes(sharding, i);
    if (axes.empty()) continue;
    const int64_t shards = totalAxesSize(axes, *mesh);
    if (local_sizes[i] != global.shape()[i] || local_sizes[i] % shards != 0) {
      return c.invariantError(
          op, strCat("a sharded operand dimension ", i,
                     " of a gather must be sliced whole, in a size divisible "
                     "by its shards"));
    }
    local_sizes[i] /= shards;
  }
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result(0)));
  const bool sorted = op.attr("indices_are_sorted").intValue().value_or(0) != 0;
  HloEmitter e(c.module(), op);
  Value indices = op.operand(1);
  LocalIndices adjusted{indices, Value()};
  if (!trivial.empty()) {
    SK_ASSIGN_OR_RETURN(
        adjusted,
        localIndices(c, e, /*gather=*/true, indices, *mesh, *sharding, global,
                     op.operand(0).type(), *dims, trivial, /*with_mask=*/true));
  }
  OperationState state(op.opName());
  state.operands = {op.operand(0), adjusted.indices};
  state.result_types = {local};
  state.inherent_attrs = op.inherentAttrs();
  state.discardable_attrs = op.discardableAttrs();
  state.inherent_attrs.set("slice_sizes", Attribute::i64Array(local_sizes));
  state.inherent_attrs.set("indices_are_sorted", Attribute::boolean(sorted));
  Value result = e.create1(state);
  if (trivial.empty()) {
    c.replace(op, {result});
    return absl::OkStatus();
  }
  // What another device holds is zero here: the all-reduce after sums it.
  Value mask = adjusted.mask;
  const int64_t ivd = dims->index_vector_dim;
  if (mask.type().rank() > 0 && ivd < mask.type().rank()) {
    std::vector<int64_t> reduced(mask.type().shape().begin(),
                                 mask.type().shape().end());
    reduced.erase(reduced.begin() + ivd);
    Value init = e.splatInt(e.scalar("i1"), 1);
    OperationState reduce(stablehlo::ReduceOp::opName());
    reduce.operands = {mask, init};
    reduce.result_types = {e.tensor(reduced, "i1")};
    reduce.addAttr("dimensions", Attribute::i64Array({ivd}));
    reduce.num_regions = 1;
    Op reduce_op = e.create(reduce);
    e.buildReduceBody(reduce_op, "i1", ReduceKind::kAnd);
    mask = reduce_op.result(0);
  }
  std::vector<int64_t> broadcast_dims;
  if (mask.type().rank() > 0) {
    for (int64_t i = 0; i < local.rank(); ++i) {
      if (!contains(dims->offset_dims, i)) broadcast_dims.push_back(i);
    }
  }
  Value wide =
      e.broadcastInDim(mask, e.tensor(local.shape(), "i1"), broadcast_dims);
  Value zero = e.constant(local, zeroLiteral(local.elementType()));
  Value selected = e.select(wide, result, zero);
  auto reduce = dynCast<sdy::AllReduceOp>(op.result(0).soleUser());
  if (!reduce) {
    return c.invariantError(op,
                            "Expected the gather to have one user and the user "
                            "is an sdy.all_reduce.");
  }
  const AxisRefList& reduced_axes = reduce.axes();
  if (!std::equal(reduced_axes.begin(), reduced_axes.end(), reduction.begin(),
                  reduction.end())) {
    return c.invariantError(op,
                            "The axes of the sdy.all_reduce should match the "
                            "sharded collapsed operand dimensions of the "
                            "gather.");
  }
  c.replace(op, {selected});
  return absl::OkStatus();
}

namespace {

// The axes sharding the updates' batch dims (those not in
// update_window_dims) that shard no operand dim: each device scatters part
// of the updates, so the results are summed (or otherwise reduced) after.
AxisRefVector scatterReductionAxes(const SliceDimensionNumbers& dims,
                                   const TensorSharding* updates,
                                   const TensorSharding* input,
                                   int64_t update_rank) {
  AxisRefVector axes;
  if (shardsNoDimension(updates)) return axes;
  for (int64_t i = 0; i < update_rank; ++i) {
    if (contains(dims.offset_dims, i)) continue;
    for (const AxisRef& axis : dimAxes(updates, i)) {
      bool in_operand = false;
      if (!shardsNoDimension(input)) {
        for (const DimensionSharding& dim : input->dim_shardings) {
          in_operand = in_operand || std::find(dim.axes.begin(), dim.axes.end(),
                                               axis) != dim.axes.end();
        }
      }
      if (!in_operand) axes.push_back(axis);
    }
  }
  return axes;
}

}  // namespace

absl::Status convertScatter(GlobalToLocal& c, Op op) {
  const unsigned n = (op.numOperands() - 1) / 2;
  const TensorSharding* input = c.operandSharding(0);
  const TensorSharding* updates = c.operandSharding(n + 1);
  if (shardsNoDimension(input) && shardsNoDimension(updates)) {
    return c.localizeInPlace(op);
  }
  const Mesh* mesh = input ? c.meshOf(input) : c.meshOf(updates);
  if (mesh == nullptr) {
    return c.patternError(op, "failed to resolve mesh.", /*op_prefix=*/false);
  }
  std::optional<ScatterDimensionNumbers> dims =
      getScatterDimensionNumbers(op.attr("scatter_dimension_numbers"));
  if (!dims) return c.invariantError(op, "expected scatter dimension numbers");
  const AxisRefVector reduction = scatterReductionAxes(
      *dims, updates, input, c.operandGlobalType(n + 1).rank());
  if (reduction.empty() && shardsNoDimension(input)) {
    return c.localizeInPlace(op);
  }
  HloEmitter e(c.module(), op);
  std::vector<Value> inputs;
  for (unsigned i = 0; i < n; ++i) inputs.push_back(op.operand(i));
  Type local_input = inputs[0].type();
  if (!reduction.empty()) {
    std::optional<std::string> identity = scatterIdentity(op);
    if (!identity) {
      return c.patternError(op, "failed to get scatter reduction identity.",
                            /*op_prefix=*/false);
    }
    Value init = e.constant(e.scalar(local_input.elementType()), *identity);
    // One device per group (shard 0 along the reduction axes) keeps the
    // operand; the others start from the identity.
    const int64_t devices = mesh->totalSize();
    std::vector<int64_t> leaders;
    for (int64_t device = 0; device < devices; ++device) {
      absl::StatusOr<int64_t> shard = shardIndex(device, *mesh, reduction);
      if (!shard.ok())
        return c.invariantError(op, fromAbsl(shard.status().message()));
      leaders.push_back(*shard == 0);
    }
    SK_ASSIGN_OR_RETURN(Value id, c.deviceId(e));
    Value table = e.intTable(leaders, "i1");
    Value leader = e.dynamicSlice(table, {id}, {1});
    leader = e.broadcastInDim(leader, e.tensor(local_input.shape(), "i1"), {0});
    Value identities = e.broadcastInDim(init, local_input, {});
    for (Value& v : inputs) v = e.select(leader, v, identities);
  }
  Type global_input = c.operandGlobalType(0);
  std::vector<int64_t> indexed;
  if (!shardsNoDimension(input)) {
    for (int64_t i = 0; i < global_input.rank(); ++i) {
      absl::Span<const AxisRef> axes = dimAxes(input, i);
      if (axes.empty()) continue;
      if (totalAxesSize(axes, *mesh) <= 1) {
        return c.invariantError(
            op, "We should have removed trivial sharding in a previous pass.");
      }
      if (contains(dims->index_map, i)) {
        indexed.push_back(i);
      } else if (contains(dims->collapsed_dims, i)) {
        return c.patternError(
            op, strCat("sharding operand dimension ", i,
                       " that is not indexed but in inserted window dimension "
                       "is not supported."));
      }
    }
  }
  if (indexed.empty() && reduction.empty()) return c.localizeInPlace(op);
  Value indices = op.operand(n);
  if (!shardsNoDimension(input)) {
    SK_ASSIGN_OR_RETURN(
        LocalIndices local,
        localIndices(c, e, /*gather=*/false, indices, *mesh, *input,
                     global_input, local_input, *dims, indexed,
                     /*with_mask=*/false));
    indices = local.indices;
  }
  // The scatter keeps its region: rebuilt in place with the new operands.
  for (unsigned i = 0; i < n; ++i) op.setOperand(i, inputs[i]);
  op.setOperand(n, indices);
  for (const char* flag : {"indices_are_sorted", "unique_indices"}) {
    op.setAttr(flag,
               Attribute::boolean(op.attr(flag).intValue().value_or(0) != 0));
  }
  return c.localizeInPlace(op);
}

}  // namespace shardkit::partition
