// StableHLO reductions as mesh inference sees them.
#include "src/mpmd/reduction_utils.h"

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/enum_table.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// The elementwise op that combines two values of each reduction (none for
// kNone), in the enumerators' order.
using OpNameFn = OpName (*)();
constexpr EnumTable<ReductionType, OpNameFn> kCombiningOps = {
    {nullptr, &stablehlo::AddOp::opName, &stablehlo::MaxOp::opName,
     &stablehlo::MinOp::opName, &stablehlo::MulOp::opName,
     &stablehlo::OrOp::opName, &stablehlo::AndOp::opName}};

}  // namespace

std::optional<ReductionType> reductionOpType(Op op) {
  if (!op) return std::nullopt;
  return kCombiningOps.findIf(
      [&](OpNameFn op_name) { return op_name && op.is(op_name()); });
}

std::optional<ReductionType> bodyReductionType(Block body) {
  if (!body || body.empty()) return std::nullopt;
  Op ret = body.back();
  unsigned n = ret.numOperands();
  if (body.numArguments() != 2 * n) return std::nullopt;
  std::optional<ReductionType> result;
  for (unsigned i = 0; i < n; ++i) {
    Op reduction = ret.operand(i).definingOp();
    std::optional<ReductionType> type = reductionOpType(reduction);
    if (!type || (result && *result != *type)) return std::nullopt;
    result = type;
    Value a = body.argument(i), b = body.argument(i + n);
    Value x = reduction.operand(0), y = reduction.operand(1);
    if (!((x == a && y == b) || (x == b && y == a))) return std::nullopt;
  }
  return result;
}

Op matchConcatReduce(Op op) {
  if (!isa<stablehlo::ConcatenateOp>(op) || op.numOperands() == 0) return Op();
  for (Value operand : op.operands()) {
    if (!(operand.type() == op.operand(0).type())) return Op();
  }
  Op reduce = op.result(0).soleUser();
  if (!isa<stablehlo::ReduceOp>(reduce) || reduce.numOperands() != 2)
    return Op();
  std::optional<std::vector<int64_t>> dims =
      reduce.attr("dimensions").intList();
  std::optional<int64_t> concat_dim = op.attr("dimension").intValue();
  Type type = op.operand(0).type();
  if (!dims || dims->size() != 1 || !concat_dim || !type.isRankedTensor() ||
      (*dims)[0] != *concat_dim || *concat_dim < 0 ||
      *concat_dim >= type.rank() || type.shape()[*concat_dim] != 1) {
    return Op();
  }
  return reduce;
}

Value createReduction(ReductionType type, Value lhs, Value rhs, Block block,
                      uint32_t location) {
  const OpNameFn op_name = kCombiningOps[type];
  if (!op_name) return Value();
  OperationState state(op_name());
  state.operands = {lhs, rhs};
  state.result_types = {lhs.type()};
  state.location = location;
  Op op = block.module()->createOp(state);
  Op last = block.empty() ? Op() : block.back();
  if (last && last.hasTrait(OpTrait::kTerminator)) {
    block.insertBefore(last, op);
  } else {
    block.pushBack(op);
  }
  return op.result(0);
}

}  // namespace shardkit::mpmd::mpmd_internal
