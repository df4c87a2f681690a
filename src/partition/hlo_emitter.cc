// StableHLO op building for the partitioner (hlo_emitter.h).
#include "src/partition/hlo_emitter.h"

#include <utility>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/strings.h"

namespace shardkit::partition {
namespace {

void appendElement(std::string& out, int64_t value, bool boolean) {
  if (boolean) {
    out += value != 0 ? "true" : "false";
  } else {
    strAppend(out, value);
  }
}

// Appends the elements of `values` from `offset` nested by `shape[dim:]`.
void appendNested(std::string& out, absl::Span<const int64_t> values,
                  absl::Span<const int64_t> shape, size_t dim, size_t& offset,
                  bool boolean) {
  if (dim == shape.size()) {
    appendElement(out, values[offset++], boolean);
    return;
  }
  out += '[';
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i) out += ", ";
    appendNested(out, values, shape, dim + 1, offset, boolean);
  }
  out += ']';
}

}  // namespace

std::string denseIntLiteral(absl::Span<const int64_t> values,
                            absl::Span<const int64_t> shape, bool boolean) {
  std::string out = "dense<";
  if (!values.empty()) {
    bool splat = true;
    for (int64_t v : values) splat = splat && v == values[0];
    if (splat) {
      appendElement(out, values[0], boolean);
    } else {
      size_t offset = 0;
      appendNested(out, values, shape, 0, offset, boolean);
    }
  }
  out += '>';
  return out;
}

std::string_view reduceOpName(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::kSum:
      return stablehlo::AddOp::kName;
    case ReduceKind::kMax:
      return stablehlo::MaxOp::kName;
    case ReduceKind::kMin:
      return stablehlo::MinOp::kName;
    case ReduceKind::kAnd:
      return stablehlo::AndOp::kName;
  }
  return stablehlo::AddOp::kName;
}

HloEmitter::HloEmitter(Module& module, Op anchor)
    : module_(module), anchor_(anchor) {}

Type HloEmitter::tensor(absl::Span<const int64_t> shape,
                        std::string_view element) {
  return module_.types().rankedTensor(shape, element);
}

Op HloEmitter::create(OperationState& state) {
  state.location = anchor_.location();
  Op op = module_.createOp(state);
  anchor_.parentBlock().insertBefore(anchor_, op);
  return op;
}

Value HloEmitter::constant(Type type, std::string literal) {
  OperationState state(stablehlo::ConstantOp::opName());
  state.result_types = {type};
  state.addAttr("value", Attribute::elements(std::move(literal), type));
  return create1(state);
}

Value HloEmitter::splatInt(Type type, int64_t value) {
  const bool boolean = type.elementType() == "i1";
  return constant(type, denseIntLiteral({value}, {}, boolean));
}

Value HloEmitter::intTable(absl::Span<const int64_t> values,
                           std::string_view element) {
  const int64_t n = static_cast<int64_t>(values.size());
  return constant(tensor({n}, element),
                  denseIntLiteral(values, {n}, element == "i1"));
}

Value HloEmitter::partitionId() {
  OperationState state(stablehlo::PartitionIdOp::opName());
  state.result_types = {scalar("ui32")};
  return create1(state);
}

Value HloEmitter::replicaId() {
  OperationState state(stablehlo::ReplicaIdOp::opName());
  state.result_types = {scalar("ui32")};
  return create1(state);
}

absl::StatusOr<Value> HloEmitter::deviceId(int64_t replica_count,
                                           int64_t partition_count) {
  if (replica_count > 1 && partition_count > 1) {
    return absl::InvalidArgumentError(
        "Shardy partitioner does not support replica_count > 1 && "
        "partition_count > 1 yet.");
  }
  Value id = replica_count > 1 ? replicaId() : partitionId();
  return convert(id, "i64");
}

Value HloEmitter::convert(Value v, std::string_view element) {
  OperationState state(stablehlo::ConvertOp::opName());
  state.operands = {v};
  state.result_types = {tensor(v.type().shape(), element)};
  return create1(state);
}

Value HloEmitter::reshape(Value v, absl::Span<const int64_t> shape) {
  OperationState state(stablehlo::ReshapeOp::opName());
  state.operands = {v};
  state.result_types = {tensor(shape, v.type().elementType())};
  return create1(state);
}

Value HloEmitter::transpose(Value v, absl::Span<const int64_t> permutation) {
  std::vector<int64_t> shape;
  for (int64_t d : permutation) shape.push_back(v.type().shape()[d]);
  OperationState state(stablehlo::TransposeOp::opName());
  state.operands = {v};
  state.result_types = {tensor(shape, v.type().elementType())};
  state.addAttr("permutation",
                Attribute::i64Array({permutation.begin(), permutation.end()}));
  return create1(state);
}

Value HloEmitter::broadcastInDim(Value v, Type type,
                                 absl::Span<const int64_t> dims) {
  OperationState state(stablehlo::BroadcastInDimOp::opName());
  state.operands = {v};
  state.result_types = {type};
  state.addAttr("broadcast_dimensions",
                Attribute::i64Array({dims.begin(), dims.end()}));
  return create1(state);
}

Value HloEmitter::dynamicSlice(Value v, absl::Span<const Value> starts,
                               absl::Span<const int64_t> sizes) {
  OperationState state(stablehlo::DynamicSliceOp::opName());
  state.operands = {v};
  state.operands.insert(state.operands.end(), starts.begin(), starts.end());
  state.result_types = {tensor(sizes, v.type().elementType())};
  state.addAttr("slice_sizes",
                Attribute::i64Array({sizes.begin(), sizes.end()}));
  return create1(state);
}

Value HloEmitter::concatenate(absl::Span<const Value> values, int64_t dim) {
  std::vector<int64_t> shape(values[0].type().shape().begin(),
                             values[0].type().shape().end());
  shape[dim] = 0;
  for (Value v : values) shape[dim] += v.type().shape()[dim];
  OperationState state(stablehlo::ConcatenateOp::opName());
  state.operands.assign(values.begin(), values.end());
  state.result_types = {tensor(shape, values[0].type().elementType())};
  state.addAttr("dimension", Attribute::integer(dim));
  return create1(state);
}

Value HloEmitter::binary(std::string_view name, Value lhs, Value rhs) {
  OperationState state(module_.opName(name));
  state.operands = {lhs, rhs};
  state.result_types = {lhs.type()};
  return create1(state);
}

Value HloEmitter::compare(std::string_view direction, Value lhs, Value rhs) {
  OperationState state(stablehlo::CompareOp::opName());
  state.operands = {lhs, rhs};
  state.result_types = {tensor(lhs.type().shape(), "i1")};
  state.addAttr("comparison_direction",
                Attribute::opaque(strCat("#stablehlo<comparison_direction ",
                                         direction, ">")));
  return create1(state);
}

Value HloEmitter::select(Value pred, Value on_true, Value on_false) {
  OperationState state(stablehlo::SelectOp::opName());
  state.operands = {pred, on_true, on_false};
  state.result_types = {on_true.type()};
  return create1(state);
}

Value HloEmitter::clamp(Value min, Value x, Value max) {
  OperationState state(stablehlo::ClampOp::opName());
  state.operands = {min, x, max};
  state.result_types = {x.type()};
  return create1(state);
}

Value HloEmitter::iota(Type type, int64_t dim) {
  OperationState state(stablehlo::IotaOp::opName());
  state.result_types = {type};
  state.addAttr("iota_dimension", Attribute::integer(dim));
  return create1(state);
}

void HloEmitter::buildReduceBody(Op op, std::string_view element,
                                 ReduceKind kind) {
  Block block = op.region(0).addBlock();
  Type type = scalar(element);
  Value lhs = block.addArgument(type);
  Value rhs = block.addArgument(type);
  OperationState reducer(module_.opName(reduceOpName(kind)));
  reducer.operands = {lhs, rhs};
  reducer.result_types = {type};
  reducer.location = anchor_.location();
  Op reduce = module_.createOp(reducer);
  block.pushBack(reduce);
  OperationState ret(stablehlo::ReturnOp::opName());
  ret.operands = {reduce.result(0)};
  ret.location = anchor_.location();
  block.pushBack(module_.createOp(ret));
}

}  // namespace shardkit::partition
