// -sdy-convert-global-to-local: the ops whose indices or attributes follow
// the shards (concatenate, iota, pad, slice) and the windowed ops, which are
// only checked.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/partition/global_to_local.h"

namespace shardkit::partition {
namespace {

// The integers of an integer elements attribute (a splat as one value), or
// nullopt.
std::optional<std::vector<int64_t>> elementInts(const Attribute& attr) {
  const ElementsValue* elements = attr.asElements();
  if (elements == nullptr) return std::nullopt;
  std::vector<int64_t> values;
  const std::string& text = elements->literal;
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) ||
        (text[i] == '-' && i + 1 < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      char* end = nullptr;
      values.push_back(std::strtoll(text.c_str() + i, &end, 10));
      i = end - text.c_str();
    } else {
      ++i;
    }
  }
  return values;
}

std::vector<int64_t> i64s(const Attribute& attr) {
  std::optional<std::vector<int64_t>> v = attr.intList();
  return v ? *v : std::vector<int64_t>();
}

// A copy of `op` before it with operand `operand`, result type `type` and its
// inherent attributes: what the reference builds when it rebuilds an op
// from its builder (its discardable attributes are not kept).
OperationState rebuilt(Op op, Type type) {
  OperationState state(op.opName());
  state.operands = op.operands();
  state.result_types = {type};
  state.inherent_attrs = op.inherentAttrs();
  return state;
}

}  // namespace

absl::Status convertConcatenate(GlobalToLocal& c, Op op) {
  const TensorSharding* out = c.sharding(op.result(0));
  const int64_t dim = op.attr("dimension").intValue().value_or(0);
  if (!dimAxes(out, dim).empty()) {
    return c.patternError(
        op, strCat("dimension ", dim,
                   " is sharded but the concatenation is on this dimension."));
  }
  for (unsigned index = 0; index < c.numOriginalOperands(); ++index) {
    const TensorSharding* in = c.operandSharding(index);
    if (shardsNoDimension(in)) continue;
    if (!dimAxes(in, dim).empty()) {
      return c.patternError(op, strCat("operand ", index,
                                       " is sharded on concatenation "
                                       "dimension ",
                                       dim, ". This is not supported."));
    }
    for (int64_t i = 0; i < in->rank(); ++i) {
      if (i == dim) continue;
      absl::Span<const AxisRef> in_axes = dimAxes(in, i);
      absl::Span<const AxisRef> out_axes = dimAxes(out, i);
      if (!std::equal(in_axes.begin(), in_axes.end(), out_axes.begin(),
                      out_axes.end())) {
        return c.patternError(
            op, strCat("dimension ", i, " has mismatched sharding axes (",
                       axesText(in_axes), " vs ", axesText(out_axes),
                       "). This requires a reshard which should have been "
                       "handled by previous passes."));
      }
    }
  }
  return c.localizeInPlace(op);
}

absl::Status convertIota(GlobalToLocal& c, Op op) {
  const TensorSharding* sharding = c.sharding(op.result(0));
  if (shardsNoDimension(sharding)) return absl::OkStatus();
  const Mesh* mesh = c.meshOf(sharding);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result(0)));
  const int64_t dim = op.attr("iota_dimension").intValue().value_or(0);
  HloEmitter e(c.module(), op);
  Value iota = e.iota(local, dim);
  absl::Span<const AxisRef> axes = dimAxes(sharding, dim);
  if (axes.empty()) {
    c.replace(op, {iota});
    return absl::OkStatus();
  }
  SK_ASSIGN_OR_RETURN(Value offset,
                      c.dimensionOffset(e, *mesh, axes, local.shape()[dim]));
  Value converted = e.convert(offset, local.elementType());
  Value broadcast = e.broadcastInDim(converted, local, {});
  c.replace(op, {e.binary(stablehlo::AddOp::kName, iota, broadcast)});
  return absl::OkStatus();
}

absl::Status convertSlice(GlobalToLocal& c, Op op) {
  const TensorSharding* in = c.operandSharding(0);
  const TensorSharding* out = c.sharding(op.result(0));
  if (shardsNoDimension(in) && shardsNoDimension(out)) {
    return c.localizeInPlace(op);
  }
  Type global_in = c.operandGlobalType(0);
  Type global_out = c.globalType(op.result(0));
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result(0)));
  std::vector<int64_t> starts = i64s(op.attr("start_indices"));
  std::vector<int64_t> limits = i64s(op.attr("limit_indices"));
  std::vector<int64_t> strides = i64s(op.attr("strides"));
  const int64_t rank = global_in.rank();
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(limits.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank) {
    return c.invariantError(op, "expected a start, limit and stride per dim");
  }
  const Mesh* mesh = c.meshOf(in);
  for (int64_t i = 0; i < rank; ++i) {
    absl::Span<const AxisRef> in_axes = dimAxes(in, i);
    absl::Span<const AxisRef> out_axes = dimAxes(out, i);
    if (!std::equal(in_axes.begin(), in_axes.end(), out_axes.begin(),
                    out_axes.end())) {
      return c.patternError(
          op, strCat("dimension ", i, " has mismatched sharding axes (",
                     axesText(in_axes), " vs ", axesText(out_axes),
                     "). This requires a reshard which should have been "
                     "handled by previous passes."));
    }
    if (in_axes.empty()) continue;
    const int64_t in_size = global_in.shape()[i];
    const int64_t shards = mesh ? totalAxesSize(in_axes, *mesh) : 1;
    // A dimension whose slice starts at 0 with stride 1 and ends within the
    // last shard's piece needs no communication.
    const bool communication_free =
        shards <= 1 ||
        (starts[i] == 0 && strides[i] == 1 && in_size != kDynamicSize &&
         global_out.shape()[i] != kDynamicSize &&
         (in_size + shards - 1) / shards ==
             (global_out.shape()[i] + shards - 1) / shards);
    if (starts[i] != 0 || (limits[i] != in_size && !communication_free)) {
      return c.patternError(
          op, strCat("dimension ", i,
                     " is sharded but the slice is not a full slice and "
                     "requires device communication."));
    }
    limits[i] = limits[i] == in_size ? op.operand(0).type().shape()[i]
                                     : local.shape()[i];
    starts[i] = 0;
  }
  HloEmitter e(c.module(), op);
  OperationState state = rebuilt(op, local);
  state.inherent_attrs.set("start_indices", Attribute::i64Array(starts));
  state.inherent_attrs.set("limit_indices", Attribute::i64Array(limits));
  c.replace(op, {e.create1(state)});
  return absl::OkStatus();
}

absl::Status convertPad(GlobalToLocal& c, Op op) {
  const TensorSharding* in = c.operandSharding(0);
  const TensorSharding* out = c.sharding(op.result(0));
  if (shardsNoDimension(in)) {
    if (!shardsNoDimension(out)) {
      return c.invariantError(
          op,
          "the result of a pad of a replicated operand must be "
          "replicated");
    }
    return c.localizeInPlace(op);
  }
  const Mesh* mesh = c.meshOf(in);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  Type global_in = c.operandGlobalType(0);
  Type global_out = c.globalType(op.result(0));
  const int64_t rank = global_in.rank();
  const int64_t devices = mesh->totalSize();
  std::vector<int64_t> low = i64s(op.attr("edge_padding_low"));
  std::vector<int64_t> interior = i64s(op.attr("interior_padding"));
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank) {
    return c.invariantError(op, "expected a padding per dimension");
  }
  // The offset, per dim and device, of the device's input data in its output
  // piece: (global start of its input data) - (global start of its piece).
  std::vector<std::vector<int64_t>> offsets(rank,
                                            std::vector<int64_t>(devices));
  std::vector<bool> uniform(rank, true);
  for (int64_t i = 0; i < rank; ++i) {
    absl::Span<const AxisRef> in_axes = dimAxes(in, i);
    absl::Span<const AxisRef> out_axes = dimAxes(out, i);
    if (!std::equal(in_axes.begin(), in_axes.end(), out_axes.begin(),
                    out_axes.end())) {
      return c.invariantError(
          op, strCat("dimension ", i, " has mismatched sharding axes (",
                     axesText(in_axes), " vs ", axesText(out_axes),
                     "). This requires a reshard collective which should "
                     "have been handled by previous passes."));
    }
    const int64_t shards = in_axes.empty() ? 1 : totalAxesSize(in_axes, *mesh);
    const int64_t s_in = global_in.shape()[i] / shards;
    const int64_t s_out = global_out.shape()[i] / shards;
    for (int64_t device = 0; device < devices; ++device) {
      absl::StatusOr<int64_t> k_in = shardIndex(device, *mesh, in_axes);
      absl::StatusOr<int64_t> k_out = shardIndex(device, *mesh, out_axes);
      if (!k_in.ok())
        return c.invariantError(op, fromAbsl(k_in.status().message()));
      if (!k_out.ok())
        return c.invariantError(op, fromAbsl(k_out.status().message()));
      offsets[i][device] =
          *k_in * s_in * (interior[i] + 1) + low[i] - *k_out * s_out;
      if (offsets[i][device] != offsets[i][0]) uniform[i] = false;
    }
  }
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result(0)));
  Value input = op.operand(0);
  absl::Span<const int64_t> local_in = input.type().shape();
  HloEmitter e(c.module(), op);
  auto expanded = [&](int64_t i) {
    return (local_in[i] - 1) * (interior[i] + 1) + 1;
  };
  if (std::all_of(uniform.begin(), uniform.end(), [](bool u) { return u; })) {
    std::vector<int64_t> new_low, new_high;
    for (int64_t i = 0; i < rank; ++i) {
      new_low.push_back(offsets[i][0]);
      new_high.push_back(local.shape()[i] - (expanded(i) + offsets[i][0]));
    }
    OperationState state = rebuilt(op, local);
    state.inherent_attrs.set("edge_padding_low", Attribute::i64Array(new_low));
    state.inherent_attrs.set("edge_padding_high",
                             Attribute::i64Array(new_high));
    c.replace(op, {e.create1(state)});
    return absl::OkStatus();
  }
  // Pads enough for every device's shift, then slices the device's piece.
  std::vector<int64_t> safe_low, safe_high, safe_shape;
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t max_o =
        *std::max_element(offsets[i].begin(), offsets[i].end());
    const int64_t min_o =
        *std::min_element(offsets[i].begin(), offsets[i].end());
    safe_low.push_back(std::max<int64_t>(0, max_o));
    safe_high.push_back(
        std::max<int64_t>(0, local.shape()[i] - min_o - expanded(i)));
    safe_shape.push_back(safe_low[i] + expanded(i) + safe_high[i]);
  }
  OperationState safe = rebuilt(op, e.tensor(safe_shape, local.elementType()));
  safe.inherent_attrs.set("edge_padding_low", Attribute::i64Array(safe_low));
  safe.inherent_attrs.set("edge_padding_high", Attribute::i64Array(safe_high));
  Value padded = e.create1(safe);
  SK_ASSIGN_OR_RETURN(Value id, c.deviceId(e));
  std::vector<Value> starts;
  for (int64_t i = 0; i < rank; ++i) {
    std::vector<int64_t> table;
    for (int64_t o : offsets[i]) table.push_back(safe_low[i] - o);
    if (uniform[i]) {
      starts.push_back(e.splatInt(e.scalar("i64"), table[0]));
      continue;
    }
    Value values = e.intTable(table, "i64");
    starts.push_back(e.reshape(e.dynamicSlice(values, {id}, {1}), {}));
  }
  c.replace(op, {e.dynamicSlice(padded, starts, local.shape())});
  return absl::OkStatus();
}

absl::Status convertWindowed(GlobalToLocal& c, Op op) {
  const TensorSharding* in = c.operandSharding(0);
  if (in != nullptr && !shardsNoDimension(in)) {
    const Mesh* mesh = c.meshOf(in);
    if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
    std::optional<std::vector<int64_t>> padding;
    if (op.hasAttr("padding")) padding = elementInts(op.attr("padding"));
    std::vector<int64_t> windows = i64s(op.attr("window_dimensions"));
    std::vector<int64_t> strides = i64s(op.attr("window_strides"));
    const int64_t rank = c.operandGlobalType(0).rank();
    for (int64_t dim = 0; dim < rank; ++dim) {
      absl::Span<const AxisRef> axes = dimAxes(in, dim);
      if (axes.empty() || totalAxesSize(axes, *mesh) <= 1) continue;
      bool passthrough = true;
      if (padding && !padding->empty()) {
        // `padding` is [rank, 2] (a splat is one value for all).
        auto at = [&](size_t k) {
          return padding->size() == 1  ? (*padding)[0]
                 : k < padding->size() ? (*padding)[k]
                                       : 0;
        };
        if (at(2 * dim) != 0 || at(2 * dim + 1) != 0) passthrough = false;
      }
      if (passthrough) {
        const bool has_window = !windows.empty();
        const bool has_stride = !strides.empty();
        passthrough = (!has_stride || strides[dim] == 1 ||
                       (has_window && strides[dim] >= windows[dim])) &&
                      (!has_window || windows[dim] == 1 ||
                       (has_stride && strides[dim] >= windows[dim]));
      }
      if (!passthrough) {
        return c.invariantError(
            op, strCat("In op ", op.name(), " dimension ", dim,
                       " is sharded but is not a pass-through dimension."));
      }
    }
  }
  return c.localizeInPlace(op);
}

}  // namespace shardkit::partition
