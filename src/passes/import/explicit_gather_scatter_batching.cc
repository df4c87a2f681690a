// -sdy-explicit-gather-scatter-batching: a gather or scatter whose indices
// for operand dimension 0 come from an iota along the same batch dimension
// (row-wise indexing, `x[jnp.arange(B), i]`) is an implicitly batched one;
// the pass makes the batch dimension explicit (operand/input and
// indices batching dimension 0) and removes the iota component from the
// indices, so that propagation can shard the batch dimension through it.
//
// What is recognised, as in the reference: no batching dimensions yet; the
// index vector dimension exists and has at least 2 components; dimension 0 of
// the operand (scatter: first input) and of the indices have the same size;
// operand dimension 0 is in the index map, and is collapsed (scatter:
// inserted); the indices' component for it is, possibly through a
// concatenate along the index vector dimension and then reshapes,
// broadcast_in_dims, clamps and selects, an iota along dimension 0. The new
// indices are the concatenate's other inputs, or slices of the indices.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/text/stablehlo_attr_text.h"

namespace shardkit {
namespace {

std::optional<int64_t> intAttr(Op op, std::string_view name) {
  return op.attr(name).intValue();
}

// Follows reshapes, broadcast_in_dims, clamps and selects (preferring an
// iota on the false side) back to the value they pass on.
Value unwrapIndexChain(Value value) {
  while (Op def = value.definingOp()) {
    if (isa<stablehlo::ReshapeOp>(def) ||
        isa<stablehlo::BroadcastInDimOp>(def)) {
      value = def.operand(0);
    } else if (isa<stablehlo::ClampOp>(def)) {
      value = def.operand(1);  // clamp(min, operand, max)
    } else if (isa<stablehlo::SelectOp>(def)) {
      Value on_false = def.operand(2);
      value = isa<stablehlo::IotaOp>(on_false.definingOp()) ? on_false
                                                            : def.operand(1);
    } else {
      break;
    }
  }
  return value;
}

// Whether component `component` of `indices` along `index_vector_dim` is an
// iota along dimension 0.
bool componentIsBatchIota(Value indices, int64_t index_vector_dim,
                          int64_t component) {
  Value candidate = indices;
  if (Op concat = indices.definingOp();
      concat && isa<stablehlo::ConcatenateOp>(concat)) {
    if (intAttr(concat, "dimension") != index_vector_dim ||
        component >= concat.numOperands()) {
      return false;
    }
    candidate = concat.operand(component);
  }
  Op iota = unwrapIndexChain(candidate).definingOp();
  return iota && isa<stablehlo::IotaOp>(iota) &&
         intAttr(iota, "iota_dimension") == 0;
}

Type withDim(Module& m, Type type, int64_t dim, int64_t size) {
  std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
  shape[dim] = size;
  return m.types().rankedTensor(shape, type.elementType());
}

Op createBefore(Module& m, Op anchor, OperationState& state) {
  state.location = anchor.location();
  Op op = m.createOp(state);
  anchor.parentBlock().insertBefore(anchor, op);
  return op;
}

Value concatenate(Module& m, Op anchor, const std::vector<Value>& inputs,
                  int64_t dim, Type type) {
  OperationState state(stablehlo::ConcatenateOp::opName());
  state.operands = inputs;
  state.result_types = {type};
  state.addAttr("dimension", Attribute::integer(dim));
  return createBefore(m, anchor, state).result(0);
}

// `indices` without component `removed` along `dim`.
Value indicesWithout(Module& m, Op anchor, Value indices, int64_t dim,
                     int64_t removed) {
  Type type = indices.type();
  int64_t total = type.shape()[dim];
  Type result_type = withDim(m, type, dim, total - 1);
  Op concat = indices.definingOp();
  if (concat && isa<stablehlo::ConcatenateOp>(concat) &&
      intAttr(concat, "dimension") == dim && concat.numOperands() == total) {
    std::vector<Value> inputs;
    for (unsigned i = 0; i < concat.numOperands(); ++i) {
      if (i != removed) inputs.push_back(concat.operand(i));
    }
    if (inputs.size() == 1) return inputs[0];
    return concatenate(m, anchor, inputs, dim, result_type);
  }
  std::vector<Value> parts;
  auto addSlice = [&](int64_t begin, int64_t end) {
    if (begin >= end) return;
    std::vector<int64_t> start(type.rank(), 0);
    std::vector<int64_t> limit(type.shape().begin(), type.shape().end());
    start[dim] = begin;
    limit[dim] = end;
    OperationState state(stablehlo::SliceOp::opName());
    state.operands = {indices};
    state.result_types = {withDim(m, type, dim, end - begin)};
    state.addAttr("start_indices", Attribute::i64Array(start));
    state.addAttr("limit_indices", Attribute::i64Array(limit));
    state.addAttr("strides",
                  Attribute::i64Array(std::vector<int64_t>(type.rank(), 1)));
    parts.push_back(createBefore(m, anchor, state).result(0));
  };
  addSlice(0, removed);
  addSlice(removed + 1, total);
  if (parts.size() == 1) return parts[0];
  return concatenate(m, anchor, parts, dim, result_type);
}

// Rewrites `dims` and the op's indices, operand `indices_operand`; false if
// the op (whose operand 0 is the gather operand or first scatter input)
// isn't an implicitly batched one.
bool makeBatchingExplicit(Module& m, Op op, unsigned indices_operand,
                          SliceDimensionNumbers& dims) {
  if (!dims.input_batching_dims.empty()) return false;
  Value indices = op.operand(indices_operand);
  Type operand_type = op.operand(0).type();
  Type indices_type = indices.type();
  if (!operand_type.isRankedTensor() || !indices_type.isRankedTensor() ||
      operand_type.rank() == 0 || indices_type.rank() == 0) {
    return false;
  }
  int64_t ivd = dims.index_vector_dim;
  if (ivd >= indices_type.rank() || indices_type.shape()[ivd] <= 1 ||
      indices_type.shape()[0] != operand_type.shape()[0]) {
    return false;
  }
  auto in_map = std::find(dims.index_map.begin(), dims.index_map.end(), 0);
  if (in_map == dims.index_map.end()) return false;
  int64_t component = in_map - dims.index_map.begin();
  if (!componentIsBatchIota(indices, ivd, component)) return false;
  auto collapsed =
      std::find(dims.collapsed_dims.begin(), dims.collapsed_dims.end(), 0);
  if (collapsed == dims.collapsed_dims.end()) return false;
  dims.index_map.erase(in_map);
  dims.collapsed_dims.erase(collapsed);
  dims.input_batching_dims = {0};
  dims.indices_batching_dims = {0};
  op.setOperand(indices_operand,
                indicesWithout(m, op, indices, ivd, component));
  return true;
}

// Makes a gather or scatter `op` explicitly batched if it is implicitly
// batched: its dimension numbers are the attribute `attr`, read by `parse`
// and written back by `print`; its indices are operand `indices_operand`.
void rewriteBatching(
    Module& m, Op op, std::string_view attr, unsigned indices_operand,
    std::optional<SliceDimensionNumbers> (*parse)(std::string_view),
    std::string (*print)(const SliceDimensionNumbers&)) {
  const std::string* text = op.attr(attr).asOpaque();
  std::optional<SliceDimensionNumbers> dims =
      text ? parse(*text) : std::nullopt;
  if (!dims || !makeBatchingExplicit(m, op, indices_operand, *dims)) return;
  op.setAttr(attr, Attribute::opaque(print(*dims)));
}

void rewriteGather(Module& m, Op op) {
  if (op.numOperands() != 2) return;
  rewriteBatching(m, op, "dimension_numbers", 1,
                  parseGatherDimensionNumbersAttr,
                  printGatherDimensionNumbersAttr);
}

void rewriteScatter(Module& m, Op op) {
  // inputs..., scatter_indices, updates...
  if (op.numOperands() < 3 || op.numOperands() % 2 == 0) return;
  rewriteBatching(m, op, "scatter_dimension_numbers",
                  (op.numOperands() - 1) / 2, parseScatterDimensionNumbersAttr,
                  printScatterDimensionNumbersAttr);
}

}  // namespace

absl::Status explicitGatherScatterBatching(Module& module) {
  std::vector<Op> ops;
  ir_internal::collectPreOrder(module.body(), ops);
  for (Op op : ops) {
    if (isa<stablehlo::GatherOp>(op)) {
      rewriteGather(module, op);
    } else if (isa<stablehlo::ScatterOp>(op)) {
      rewriteScatter(module, op);
    }
  }
  // The reference runs this as greedy patterns, which also erase ops left
  // unused (the iota and concatenate the indices came from).
  eraseTriviallyDeadOps(module);
  return absl::OkStatus();
}

}  // namespace shardkit
