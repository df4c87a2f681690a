#include "shardkit/dialect/graph_builder.h"

#include <algorithm>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/enum_table.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/stablehlo_attr_text.h"

namespace shardkit {
namespace {

// The op each kind builds, in the enumerators' order.
using OpNameFn = OpName (*)();
constexpr EnumTable<ElementwiseKind, OpNameFn> kElementwiseOps = {
    {&stablehlo::AddOp::opName, &stablehlo::SubtractOp::opName,
     &stablehlo::MulOp::opName, &stablehlo::DivOp::opName,
     &stablehlo::MaxOp::opName, &stablehlo::MinOp::opName}};
constexpr EnumTable<UnaryKind, OpNameFn> kUnaryOps = {
    {&stablehlo::NegOp::opName, &stablehlo::ExpOp::opName,
     &stablehlo::LogOp::opName, &stablehlo::TanhOp::opName,
     &stablehlo::SqrtOp::opName, &stablehlo::AbsOp::opName}};
// The elementwise op of a reduction's body.
constexpr EnumTable<ReduceKind, ElementwiseKind> kReduceBodies = {{
    {ReduceKind::kAdd, ElementwiseKind::kAdd},
    {ReduceKind::kMultiply, ElementwiseKind::kMultiply},
    {ReduceKind::kMaximum, ElementwiseKind::kMaximum},
    {ReduceKind::kMinimum, ElementwiseKind::kMinimum},
}};

std::string dimsText(absl::Span<const int64_t> dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    strAppend(out, i ? ", " : "", dims[i]);
  return out + "]";
}

bool isPermutation(std::vector<int64_t> dims, size_t n) {
  std::sort(dims.begin(), dims.end());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) return false;
  }
  return dims.size() == n;
}

bool inRange(absl::Span<const int64_t> dims, size_t rank) {
  return std::all_of(dims.begin(), dims.end(), [&](int64_t d) {
    return d >= 0 && d < static_cast<int64_t>(rank);
  });
}

}  // namespace

GraphBuilder::GraphBuilder(Module& module)
    : module_(module), block_(module.body()) {}

Type GraphBuilder::tensorType(const std::vector<int64_t>& shape,
                              std::string_view element_type) {
  return module_.types().rankedTensor(shape, element_type);
}

Op GraphBuilder::create(OperationState& state) {
  Op op = module_.createOp(state);
  block_.pushBack(op);
  if (!location_.isUnknown()) op.setDebugLocation(location_);
  return op;
}

void GraphBuilder::fail(Op op, std::string_view message) {
  if (status_.ok()) status_ = opError(op, message);
}

absl::Span<const int64_t> GraphBuilder::shapeOf(Value v) const {
  if (!v || !v.type().isRankedTensor()) return {};
  return v.type().shape();
}

void GraphBuilder::mesh(std::string_view name, const Mesh& mesh) {
  OperationState state(sdy::MeshOp::opName());
  state.addAttr("sym_name", Attribute::string(std::string(name)));
  state.addAttr("mesh", Attribute::of(mesh));
  Op op = module_.createOp(state);
  // Meshes come before the functions that use them.
  Op first_func;
  for (Op top : module_.body()) {
    if (isa<FuncOp>(top)) {
      first_func = top;
      break;
    }
  }
  if (first_func) {
    module_.body().insertBefore(first_func, op);
  } else {
    module_.body().pushBack(op);
  }
}

FuncOp GraphBuilder::func(std::string_view name,
                          const std::vector<Type>& inputs) {
  func_ = FuncOp::create(module_, name, inputs, {});
  module_.body().pushBack(func_.op());
  if (!location_.isUnknown()) func_.op().setDebugLocation(location_);
  block_ = func_.body();
  return func_;
}

void GraphBuilder::ret(const std::vector<Value>& values) {
  OperationState state(func::ReturnOp::opName());
  state.operands = values;
  Op op = create(state);
  if (!func_) {
    fail(op, "ret() outside a function made by func()");
    return;
  }
  std::vector<Type> types;
  types.reserve(values.size());
  for (Value v : values) types.push_back(v.type());
  func_.setResultTypes(types);
  block_ = module_.body();
}

Op GraphBuilder::op(
    std::string_view name, const std::vector<Value>& operands,
    const std::vector<Type>& result_types,
    const std::vector<std::pair<std::string, Attribute>>& attrs) {
  OperationState state(module_.opName(name));
  state.operands = operands;
  state.result_types = result_types;
  for (const auto& [key, value] : attrs) state.addAttr(key, value);
  return create(state);
}

Value GraphBuilder::constant(Type type, std::string_view value) {
  OperationState state(stablehlo::ConstantOp::opName());
  state.result_types = {type};
  state.addAttr("value",
                Attribute::elements(strCat("dense<", value, ">"), type));
  return create(state).result(0);
}

Value GraphBuilder::elementwise(ElementwiseKind kind, Value lhs, Value rhs) {
  OperationState state(kElementwiseOps[kind]());
  state.operands = {lhs, rhs};
  state.result_types = {lhs.type()};
  Op op = create(state);
  if (lhs.type() != rhs.type()) {
    fail(op, strCat("operands have different types: ", lhs.type().str(),
                    " and ", rhs.type().str()));
  }
  return op.result(0);
}

Value GraphBuilder::unary(UnaryKind kind, Value operand) {
  OperationState state(kUnaryOps[kind]());
  state.operands = {operand};
  state.result_types = {operand.type()};
  return create(state).result(0);
}

Value GraphBuilder::dotGeneral(Value lhs, Value rhs,
                               const DotDimensionNumbers& dims) {
  auto l = shapeOf(lhs), r = shapeOf(rhs);
  std::string problem;
  if (!inRange(dims.lhs_batching, l.size()) ||
      !inRange(dims.lhs_contracting, l.size()) ||
      !inRange(dims.rhs_batching, r.size()) ||
      !inRange(dims.rhs_contracting, r.size()) ||
      dims.lhs_batching.size() != dims.rhs_batching.size() ||
      dims.lhs_contracting.size() != dims.rhs_contracting.size()) {
    problem = "dimension numbers do not fit the operands";
  } else {
    auto pairsMatch = [&](const std::vector<int64_t>& a,
                          const std::vector<int64_t>& b, const char* what) {
      for (size_t i = 0; i < a.size() && problem.empty(); ++i) {
        if (l[a[i]] != r[b[i]]) {
          problem = strCat(what, " dimension ", a[i], " of lhs (size ", l[a[i]],
                           ") does not match dimension ", b[i],
                           " of rhs (size ", r[b[i]], ")");
        }
      }
    };
    pairsMatch(dims.lhs_batching, dims.rhs_batching, "batching");
    pairsMatch(dims.lhs_contracting, dims.rhs_contracting, "contracting");
  }
  std::vector<int64_t> shape;
  if (problem.empty()) {
    for (int64_t d : dims.lhs_batching) shape.push_back(l[d]);
    auto addFree = [&](absl::Span<const int64_t> s,
                       const std::vector<int64_t>& batch,
                       const std::vector<int64_t>& contract) {
      for (size_t d = 0; d < s.size(); ++d) {
        int64_t dim = static_cast<int64_t>(d);
        if (std::find(batch.begin(), batch.end(), dim) == batch.end() &&
            std::find(contract.begin(), contract.end(), dim) == contract.end())
          shape.push_back(s[d]);
      }
    };
    addFree(l, dims.lhs_batching, dims.lhs_contracting);
    addFree(r, dims.rhs_batching, dims.rhs_contracting);
  }
  OperationState state(stablehlo::DotGeneralOp::opName());
  state.operands = {lhs, rhs};
  state.result_types = {tensorType(shape, lhs.type().elementType())};
  state.addAttr("dot_dimension_numbers",
                Attribute::opaque(printDotDimensionNumbersAttr(dims)));
  Op op = create(state);
  if (!problem.empty()) fail(op, problem);
  return op.result(0);
}

Value GraphBuilder::matmul(Value lhs, Value rhs) {
  DotDimensionNumbers dims;
  dims.lhs_contracting = {static_cast<int64_t>(shapeOf(lhs).size()) - 1};
  dims.rhs_contracting = {0};
  return dotGeneral(lhs, rhs, dims);
}

Value GraphBuilder::broadcastInDim(Value operand,
                                   const std::vector<int64_t>& shape,
                                   const std::vector<int64_t>& dims) {
  OperationState state(stablehlo::BroadcastInDimOp::opName());
  state.operands = {operand};
  state.result_types = {tensorType(shape, operand.type().elementType())};
  state.addAttr("broadcast_dimensions", Attribute::i64Array(dims));
  Op op = create(state);
  auto in = shapeOf(operand);
  if (dims.size() != in.size() || !inRange(dims, shape.size())) {
    fail(op, strCat("broadcast dimensions ", dimsText(dims),
                    " do not map the operand's ", in.size(),
                    " dimensions into rank ", shape.size()));
  } else {
    for (size_t i = 0; i < dims.size(); ++i) {
      if (in[i] != 1 && in[i] != shape[dims[i]]) {
        fail(op, strCat("operand dimension ", i, " (size ", in[i],
                        ") cannot broadcast to size ", shape[dims[i]]));
        break;
      }
    }
  }
  return op.result(0);
}

Value GraphBuilder::reshape(Value operand, const std::vector<int64_t>& shape) {
  OperationState state(stablehlo::ReshapeOp::opName());
  state.operands = {operand};
  state.result_types = {tensorType(shape, operand.type().elementType())};
  Op op = create(state);
  int64_t in = 1, out = 1;
  for (int64_t d : shapeOf(operand)) in *= d;
  for (int64_t d : shape) out *= d;
  if (in != out) {
    fail(op, strCat("reshape of ", in, " elements to ", dimsText(shape), " (",
                    out, " elements)"));
  }
  return op.result(0);
}

Value GraphBuilder::transpose(Value operand,
                              const std::vector<int64_t>& permutation) {
  auto in = shapeOf(operand);
  bool ok = isPermutation(permutation, in.size());
  std::vector<int64_t> shape;
  if (ok) {
    for (int64_t p : permutation) shape.push_back(in[p]);
  }
  OperationState state(stablehlo::TransposeOp::opName());
  state.operands = {operand};
  state.result_types = {tensorType(shape, operand.type().elementType())};
  state.addAttr("permutation", Attribute::i64Array(permutation));
  Op op = create(state);
  if (!ok) {
    fail(op, strCat("permutation ", dimsText(permutation),
                    " is not one of the operand's ", in.size(), " dimensions"));
  }
  return op.result(0);
}

Value GraphBuilder::reduce(Value operand, Value init,
                           const std::vector<int64_t>& dims, ReduceKind kind) {
  auto in = shapeOf(operand);
  std::vector<int64_t> shape;
  for (size_t d = 0; d < in.size(); ++d) {
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(d)) ==
        dims.end())
      shape.push_back(in[d]);
  }
  OperationState state(stablehlo::ReduceOp::opName());
  state.operands = {operand, init};
  state.result_types = {tensorType(shape, operand.type().elementType())};
  state.addAttr("dimensions", Attribute::i64Array(dims));
  state.num_regions = 1;
  Op op = create(state);
  // The body: (acc, x) -> acc KIND x on scalars.
  Type scalar = tensorType({}, operand.type().elementType());
  Block body = op.region(0).addBlock();
  Value acc = body.addArgument(scalar), x = body.addArgument(scalar);
  Block outer = block_;
  block_ = body;
  Value combined = elementwise(kReduceBodies[kind], acc, x);
  OperationState ret(stablehlo::ReturnOp::opName());
  ret.operands = {combined};
  create(ret);
  block_ = outer;
  if (!inRange(dims, in.size())) {
    fail(op, strCat("dimensions ", dimsText(dims), " are not all below rank ",
                    in.size()));
  } else if (!shapeOf(init).empty()) {
    fail(op, "the initial value must be a scalar");
  }
  return op.result(0);
}

Value GraphBuilder::shardingConstraint(Value value,
                                       const TensorSharding& sharding) {
  OperationState state(sdy::ShardingConstraintOp::opName());
  state.operands = {value};
  state.result_types = {value.type()};
  state.addAttr("sharding", Attribute::of(sharding));
  return create(state).result(0);
}

}  // namespace shardkit
