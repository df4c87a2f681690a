// Building fragments around meshless ops.
#include "src/mpmd/fragment_utils.h"

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {

std::optional<int64_t> callCounterOf(Op fragment) {
  return fragment.attr(kCallCounterAttr).intValue();
}

std::optional<int64_t> singleTransposeCount(Op fragment) {
  std::optional<int64_t> count;
  for (const UserOrigin& origin : FragmentOp(fragment).origins()) {
    if (count && *count != origin.transpose_count) return std::nullopt;
    count = origin.transpose_count;
  }
  return count;
}

Op createFragment(Op anchor, std::string_view mesh,
                  const std::vector<Value>& operands,
                  const std::vector<Type>& result_types,
                  const std::function<std::vector<Value>(
                      Block body, const std::vector<Value>& args)>& populate) {
  TypeContext& types = anchor.module()->types();
  OperationState state(FragmentOp::opName());
  state.operands = operands;
  state.result_types = result_types;
  state.addAttr("origin", Attribute::array({}));
  state.addAttr("mesh_name", Attribute::string(std::string(mesh)));
  state.num_regions = 1;
  Op fragment = createBefore(anchor, state);
  Block body = fragment.region(0).addBlock();
  std::vector<Value> args;
  for (Value operand : operands) {
    std::optional<MeshTensorType> type = MeshTensorType::of(operand.type());
    args.push_back(
        body.addArgument(type ? type->globalType(types) : operand.type()));
  }
  OperationState ret(ReturnOp::opName());
  ret.operands = populate(body, args);
  ret.location = anchor.location();
  body.pushBack(anchor.module()->createOp(ret));
  return fragment;
}

Op wrapOpWithFragment(Op op, std::string_view mesh,
                      std::string_view inferred_by,
                      const std::function<bool(const Value::Use&)>& replace_use,
                      PatternRewriter* rewriter) {
  TypeContext& types = op.module()->types();
  std::vector<Value> inputs;
  absl::flat_hash_set<Value> seen;
  for (Value operand : op.operands()) {
    if (seen.insert(operand).second) inputs.push_back(operand);
  }
  for (Value free : freeValuesOf(op)) {
    if (seen.insert(free).second) inputs.push_back(free);
  }
  std::vector<Value> operands;
  for (Value input : inputs) {
    OperationState assign = AssignOp::build(
        input,
        MeshTensorType::fullyReplicated(mesh, input.type()).toType(types));
    Op created = createBefore(op, assign);
    if (rewriter) rewriter->notifyChanged(created);
    operands.push_back(created.result(0));
  }
  std::vector<Type> result_types;
  for (Type type : op.resultTypes())
    result_types.push_back(
        MeshTensorType::fullyReplicated(mesh, type).toType(types));
  Op fragment = createFragment(op, mesh, operands, result_types,
                               [&](Block body, const std::vector<Value>& args) {
                                 ValueMap map;
                                 for (size_t i = 0; i < inputs.size(); ++i)
                                   map[inputs[i]] = args[i];
                                 Op copy = cloneOp(op, map);
                                 body.pushBack(copy);
                                 return copy.results();
                               });
  if (!inferred_by.empty()) {
    fragment.setAttr(
        kInferredByAttr,
        Attribute::array({Attribute::string(std::string(inferred_by))}));
  }
  if (rewriter) rewriter->notifyChanged(fragment);
  for (unsigned i = 0; i < op.numResults(); ++i) {
    OperationState unassign = UnassignOp::build(fragment.result(i));
    Op created = createBefore(op, unassign);
    if (rewriter) rewriter->notifyChanged(created);
    for (const Value::Use& use : op.result(i).uses()) {
      if (replace_use && !replace_use(use)) continue;
      if (rewriter) rewriter->notifyChanged(use.user());
      use.user().setOperand(use.operandIndex(), created.result(0));
    }
  }
  return fragment;
}

}  // namespace shardkit::mpmd::mpmd_internal
