// -sdy-pad-for-divisibility: the driver (function IO checks, the pre-order
// walk, which ops need padding, the dispatch), the generic rewrite and the
// building blocks the per-op rewrites share (pad_for_divisibility.h).
#include "src/partition/pad_for_divisibility.h"

#include <algorithm>
#include <string>
#include <utility>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/partition/passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/partition/reduction_identity.h"

namespace shardkit::partition {
namespace {

constexpr std::string_view kStablehloDialect = "stablehlo";

std::vector<int64_t> ints(const Attribute& attr) {
  std::optional<std::vector<int64_t>> v = attr.intList();
  return v ? *v : std::vector<int64_t>();
}

bool contains(absl::Span<const int64_t> list, int64_t v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// The sdy ops the generic rewrite handles besides StableHLO's: their result
// has their operand's type. (The reference leaves a collective_permute of a
// padded value without a rule; it moves whole pieces, padding included.)
bool isGenericSdyOp(Op op) {
  return isa<sdy::AllReduceOp, sdy::ShardedToUnreducedOp,
             sdy::ReplicatedToUnreducedOp, sdy::CollectivePermuteOp>(op);
}

// The result shape `op` infers from its current operands, for the ops whose
// result shape follows from their operands; nullopt for any other op (its
// padded type is used as it is).
std::optional<std::vector<int64_t>> inferredShape(Op op, unsigned result) {
  auto shapeOf = [&](unsigned i) {
    absl::Span<const int64_t> s = op.operand(i).type().shape();
    return std::vector<int64_t>(s.begin(), s.end());
  };
  if (op.numOperands() == 0) return std::nullopt;
  if (isGenericSdyOp(op)) return shapeOf(0);
  if (isa<stablehlo::TransposeOp>(op)) {
    std::vector<int64_t> in = shapeOf(0), out;
    for (int64_t d : ints(op.attr("permutation"))) {
      if (d < 0 || d >= static_cast<int64_t>(in.size())) return std::nullopt;
      out.push_back(in[d]);
    }
    return out;
  }
  if (isa<stablehlo::DotGeneralOp>(op) && op.numOperands() == 2) {
    std::optional<DotDimensionNumbers> dims =
        getDotDimensionNumbers(op.attr("dot_dimension_numbers"));
    if (!dims) return std::nullopt;
    std::vector<int64_t> lhs = shapeOf(0), rhs = shapeOf(1), out;
    for (int64_t d : dims->lhs_batching) out.push_back(lhs[d]);
    for (int64_t d = 0; d < static_cast<int64_t>(lhs.size()); ++d) {
      if (!contains(dims->lhs_batching, d) &&
          !contains(dims->lhs_contracting, d)) {
        out.push_back(lhs[d]);
      }
    }
    for (int64_t d = 0; d < static_cast<int64_t>(rhs.size()); ++d) {
      if (!contains(dims->rhs_batching, d) &&
          !contains(dims->rhs_contracting, d)) {
        out.push_back(rhs[d]);
      }
    }
    return out;
  }
  if (isa<stablehlo::ReduceOp>(op)) {
    std::vector<int64_t> in = shapeOf(result), out;
    std::vector<int64_t> reduced = ints(op.attr("dimensions"));
    for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
      if (!contains(reduced, d)) out.push_back(in[d]);
    }
    return out;
  }
  if (isa<stablehlo::ConcatenateOp>(op)) {
    const int64_t dim = op.attr("dimension").intValue().value_or(0);
    std::vector<int64_t> out = shapeOf(0);
    if (dim < 0 || dim >= static_cast<int64_t>(out.size())) return std::nullopt;
    for (unsigned i = 1; i < op.numOperands(); ++i) out[dim] += shapeOf(i)[dim];
    return out;
  }
  if (isa<stablehlo::SliceOp>(op)) {
    std::vector<int64_t> starts = ints(op.attr("start_indices"));
    std::vector<int64_t> limits = ints(op.attr("limit_indices"));
    std::vector<int64_t> strides = ints(op.attr("strides"));
    if (starts.size() != limits.size() || starts.size() != strides.size()) {
      return std::nullopt;
    }
    std::vector<int64_t> out;
    for (size_t d = 0; d < starts.size(); ++d) {
      const int64_t stride = std::max<int64_t>(1, strides[d]);
      out.push_back((limits[d] - starts[d] + stride - 1) / stride);
    }
    return out;
  }
  if (op.hasTrait(OpTrait::kElementwise)) {
    // The operands of the result's rank agree on their shape (a select's
    // scalar predicate aside).
    const int64_t rank = op.result(result).type().rank();
    std::optional<std::vector<int64_t>> shape;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      if (op.operand(i).type().rank() != rank) continue;
      std::vector<int64_t> s = shapeOf(i);
      if (shape && *shape != s) return std::nullopt;
      shape = std::move(s);
    }
    return shape;
  }
  return std::nullopt;
}

}  // namespace

std::vector<int64_t> divisiblePaddedShape(absl::Span<const int64_t> shape,
                                          const TensorSharding* sharding,
                                          const Mesh* mesh) {
  std::vector<int64_t> out(shape.begin(), shape.end());
  if (sharding == nullptr || mesh == nullptr ||
      sharding->rank() != static_cast<int64_t>(shape.size())) {
    return out;
  }
  for (size_t d = 0; d < out.size(); ++d) {
    const AxisRefVector& axes = sharding->dim_shardings[d].axes;
    if (out[d] == kDynamicSize || axes.empty()) continue;
    const int64_t shards = totalAxesSize(axes, *mesh);
    if (shards > 1 && out[d] % shards != 0) {
      out[d] += shards - out[d] % shards;
    }
  }
  return out;
}

PadForDivisibility::PadForDivisibility(Module& module)
    : module_(module), meshes_(module.meshTable()) {}

Type PadForDivisibility::originalType(Value value) const {
  auto it = original_types_.find(value);
  return it == original_types_.end() ? value.type() : it->second;
}

const TensorSharding* PadForDivisibility::sharding(Value value) {
  return findSharding(value, scratch_);
}

Type PadForDivisibility::paddedType(Type type, const TensorSharding* sharding) {
  if (!type.isRankedTensor() || sharding == nullptr) return type;
  std::vector<int64_t> shape =
      divisiblePaddedShape(type.shape(), sharding, meshes_.resolve(*sharding));
  if (std::equal(shape.begin(), shape.end(), type.shape().begin(),
                 type.shape().end())) {
    return type;
  }
  return module_.types().rankedTensor(shape, type.elementType(),
                                      type.encoding());
}

void PadForDivisibility::retype(Value value, Type type) {
  if (value.type() == type) return;
  original_types_.try_emplace(value, value.type());
  value.setType(type);
}

Value PadForDivisibility::padWithZeros(HloEmitter& e, Value value,
                                       Type padded) {
  std::optional<TensorSharding> s = getSharding(value);
  std::string_view element = value.type().elementType();
  Value zero = e.constant(e.scalar(element), zeroLiteral(element));
  const int64_t rank = value.type().rank();
  std::vector<int64_t> high;
  for (int64_t d = 0; d < rank; ++d) {
    high.push_back(padded.shape()[d] - value.type().shape()[d]);
  }
  OperationState state(stablehlo::PadOp::opName());
  state.operands = {value, zero};
  state.result_types = {padded};
  state.addAttr("edge_padding_low",
                Attribute::i64Array(std::vector<int64_t>(rank, 0)));
  state.addAttr("edge_padding_high", Attribute::i64Array(high));
  state.addAttr("interior_padding",
                Attribute::i64Array(std::vector<int64_t>(rank, 0)));
  Value pad = e.create1(state);
  if (s) setSharding(pad, *s);
  return pad;
}

Value PadForDivisibility::maskPadding(HloEmitter& e, Value value, Type original,
                                      Value pad_value,
                                      const std::vector<int64_t>* dims) {
  Type padded = value.type();
  if (padded == original) return value;
  std::optional<TensorSharding> s = getSharding(value);
  auto shard = [&](Value v) {
    if (s) setSharding(v, *s);
    return v;
  };
  Value mask;
  for (int64_t d = 0; d < original.rank(); ++d) {
    const int64_t size = original.shape()[d];
    if (size == padded.shape()[d] || (dims != nullptr && !contains(*dims, d))) {
      continue;
    }
    Type index_type = e.tensor(padded.shape(), "i32");
    Value iota = shard(e.iota(index_type, d));
    Value limit = e.splatInt(e.scalar("i32"), size);
    Value bound = shard(e.broadcastInDim(limit, index_type, {}));
    Value inside = shard(e.compare("LT", iota, bound));
    mask =
        mask ? shard(e.binary(stablehlo::AndOp::kName, mask, inside)) : inside;
  }
  if (!mask) return value;
  Value fill = shard(e.broadcastInDim(pad_value, padded, {}));
  return shard(e.select(mask, value, fill));
}

Value PadForDivisibility::ensureZeroPadding(HloEmitter& e, Value value,
                                            const std::vector<int64_t>& dims) {
  Type original = originalType(value);
  if (value.type() == original || isZeroPadded(value)) return value;
  std::string_view element = value.type().elementType();
  Value zero = e.constant(e.scalar(element), zeroLiteral(element));
  return maskPadding(e, value, original, zero, &dims);
}

Value PadForDivisibility::trimAfter(
    Op op, Value value, Type target, absl::Span<const int64_t> dims,
    const std::optional<TensorSharding>& sharding, bool zero_padded) {
  absl::Span<const int64_t> shape = value.type().shape();
  if (!target.isRankedTensor() || target.rank() != value.type().rank()) {
    return value;
  }
  std::vector<int64_t> limits(shape.begin(), shape.end());
  bool trims = false;
  for (int64_t d : dims) {
    if (d < 0 || d >= target.rank() || shape[d] <= target.shape()[d]) continue;
    limits[d] = target.shape()[d];
    trims = true;
  }
  if (!trims) return value;
  HloEmitter e(module_, op);
  const int64_t rank = target.rank();
  OperationState state(stablehlo::SliceOp::opName());
  state.operands = {value};
  state.result_types = {e.tensor(limits, value.type().elementType())};
  state.addAttr("start_indices",
                Attribute::i64Array(std::vector<int64_t>(rank, 0)));
  state.addAttr("limit_indices", Attribute::i64Array(limits));
  state.addAttr("strides", Attribute::i64Array(std::vector<int64_t>(rank, 1)));
  Op slice = e.create(state);
  slice.moveAfter(op);
  value.replaceUsesWithIf(slice.result(0), [&](const Value::Use& use) {
    return use.user() != slice;
  });
  if (sharding) setSharding(slice.result(0), *sharding);
  if (zero_padded) markZeroPadded(slice.result(0));
  // The slice stands for `value` in the program before the pass: its users'
  // legality and masks follow `value`'s original type.
  original_types_.try_emplace(slice.result(0), originalType(value));
  return slice.result(0);
}

std::vector<Type> PadForDivisibility::rebuiltResultTypes(Op op) {
  std::vector<Type> types;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    Value result = op.result(i);
    Type padded = paddedTypeOf(result);
    std::optional<std::vector<int64_t>> inferred = inferredShape(op, i);
    if (!padded.isRankedTensor() || !inferred ||
        static_cast<int64_t>(inferred->size()) != padded.rank()) {
      types.push_back(padded);
      continue;
    }
    for (int64_t d = 0; d < padded.rank(); ++d) {
      (*inferred)[d] = std::max((*inferred)[d], padded.shape()[d]);
    }
    types.push_back(module_.types().rankedTensor(
        *inferred, padded.elementType(), padded.encoding()));
  }
  return types;
}

void PadForDivisibility::padGeneric(Op op) {
  std::vector<Type> types = rebuiltResultTypes(op);
  for (unsigned i = 0; i < op.numResults(); ++i) retype(op.result(i), types[i]);
}

absl::Status PadForDivisibility::error(Op op, std::string_view message) const {
  return opError(op, message);
}

absl::Status PadForDivisibility::checkFunctionIO(Op op) {
  FuncOp func(op);
  auto fail = [&](std::string_view what, unsigned i) {
    return opError(op, strCat(what, " #", i,
                              " has a non-divisible sharding. Shardy expects "
                              "function IO to be divisible."));
  };
  for (unsigned i = 0; i < func.numArguments(); ++i) {
    if (!isDivisible(func.argument(i))) return fail("argument", i);
  }
  std::vector<Type> results = func.resultTypes();
  for (unsigned i = 0; i < results.size(); ++i) {
    if (paddedType(results[i], findFuncResultSharding(func, i)) != results[i]) {
      return fail("result", i);
    }
  }
  return absl::OkStatus();
}

bool PadForDivisibility::needsPadding(Op op) {
  auto anyIndivisible = [&](const std::vector<Value>& values) {
    return std::any_of(values.begin(), values.end(),
                       [&](Value v) { return !isDivisible(v); });
  };
  if (op.dialect() == kStablehloDialect || isGenericSdyOp(op) ||
      isa<sdy::AllToAllOp>(op)) {
    return anyIndivisible(op.operands()) || anyIndivisible(op.results());
  }
  if (isa<sdy::AllSliceOp, sdy::ReduceScatterOp>(op)) {
    const TensorSharding& out = sdy::collectiveOutSharding(op);
    Type type = originalType(op.operand(0));
    return paddedType(type, &out) != type;
  }
  if (isa<sdy::AllGatherOp>(op)) return anyIndivisible(op.operands());
  return false;
}

absl::Status PadForDivisibility::rewrite(Op op) {
  if (isa<stablehlo::SliceOp>(op)) return padSlice(*this, op);
  if (isa<stablehlo::PadOp>(op)) return padPad(*this, op);
  if (isa<stablehlo::DotGeneralOp>(op)) return padDotGeneral(*this, op);
  if (isa<stablehlo::ConvolutionOp>(op)) return padConvolution(*this, op);
  if (isa<stablehlo::ReduceOp>(op)) return padReduce(*this, op);
  if (isa<sdy::AllGatherOp>(op)) return padAllGather(*this, op);
  if (isa<sdy::AllSliceOp, sdy::ReduceScatterOp>(op)) {
    return padSlicingCollective(*this, op);
  }
  if (isa<sdy::AllToAllOp>(op)) return padAllToAll(*this, op);
  padGeneric(op);
  return absl::OkStatus();
}

// An op left as it is whose operand was padded gets the operand trimmed
// back to its original type (the padded value does not escape).
void PadForDivisibility::trimPaddedOperands(Op op) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Value v = op.operand(i);
    Type original = originalType(v);
    if (v.type() == original || !original.isRankedTensor()) continue;
    HloEmitter e(module_, op);
    const int64_t rank = original.rank();
    OperationState state(stablehlo::SliceOp::opName());
    state.operands = {v};
    state.result_types = {original};
    state.addAttr("start_indices",
                  Attribute::i64Array(std::vector<int64_t>(rank, 0)));
    state.addAttr("limit_indices",
                  Attribute::i64Array(
                      {original.shape().begin(), original.shape().end()}));
    state.addAttr("strides",
                  Attribute::i64Array(std::vector<int64_t>(rank, 1)));
    Value slice = e.create1(state);
    if (const TensorSharding* s = sharding(v)) {
      TensorSharding copy = *s;
      setSharding(slice, copy);
    }
    op.setOperand(i, slice);
  }
}

absl::Status PadForDivisibility::run() {
  for (FuncOp func : functionDefinitions(module_)) {
    SK_RETURN_IF_ERROR(checkFunctionIO(func.op()));
    // The padding facts of one function stay in it: its IO is divisible.
    zero_padded_.clear();
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    for (Op op : ops) {
      if (op.isErased()) continue;
      if (needsPadding(op)) {
        SK_RETURN_IF_ERROR(rewrite(op));
      } else {
        trimPaddedOperands(op);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::partition

namespace shardkit {

absl::Status padForDivisibility(Module& module) {
  return partition::PadForDivisibility(module).run();
}

}  // namespace shardkit
