#include "src/propagation/op_classes.h"

#include <string_view>
#include <utility>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// Ops that are not part of the data flow: terminators (their operands are
// their parent's business) and symbol ops (functions, meshes).
bool isTerminatorLike(Op op) {
  return op.hasTrait(OpTrait::kTerminator) || op.hasTrait(OpTrait::kSymbol);
}

// A custom call that moves its operand between host and device memory: the
// value passes through unchanged.
bool isOffloadCustomCall(Op op) {
  stablehlo::CustomCallOp call = dynCast<stablehlo::CustomCallOp>(op);
  if (!call) return false;
  std::string_view target = call.callTargetName();
  return target == "MoveToDevice" || target == "MoveToHost";
}

}  // namespace

bool isElementwiseOp(Op op) {
  if (op.hasTrait(OpTrait::kElementwise)) return true;
  // A bitcast between element types of the same width keeps the shape.
  if (isa<stablehlo::BitcastConvertOp>(op) && op.numOperands() == 1 &&
      op.numResults() == 1) {
    Type in = op.operand(0).type();
    Type out = op.result(0).type();
    return in.isRankedTensor() && out.isRankedTensor() &&
           in.shape() == out.shape();
  }
  return false;
}

OpPriorityKind opPriorityKind(Op op) {
  if (isElementwiseOp(op) || isOffloadCustomCall(op) ||
      op.hasTrait(OpTrait::kPriorityPassThrough)) {
    return OpPriorityKind::kPassThrough;
  }
  if (op.hasTrait(OpTrait::kPriorityForwardPassThrough)) {
    return OpPriorityKind::kForwardPassThrough;
  }
  if (op.hasTrait(OpTrait::kPriorityBroadcast)) {
    return OpPriorityKind::kBroadcast;
  }
  return OpPriorityKind::kOther;
}

bool hasSharedOperand(Op op) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Value operand = op.operand(i);
    Type type = operand.type();
    bool scalar = type.isRankedTensor() && type.rank() == 0;
    if (!scalar && !operand.hasOneUse()) return true;
  }
  return false;
}

const OpShardingRule& IdentityRules::get(absl::Span<const int64_t> shape,
                                         int64_t num_operands,
                                         int64_t num_results) {
  Key key{std::vector<int64_t>(shape.begin(), shape.end()), num_operands,
          num_results};
  auto it = rules_.find(key);
  if (it != rules_.end()) return it->second;
  OpShardingRule rule;
  TensorMapping mapping;
  for (size_t d = 0; d < shape.size(); ++d) {
    rule.factor_sizes.push_back(shape[d]);
    mapping.dim_mappings.push_back(DimMapping{{static_cast<int64_t>(d)}});
  }
  rule.operand_mappings.assign(num_operands, mapping);
  rule.result_mappings.assign(num_results, mapping);
  return rules_.emplace(std::move(key), std::move(rule)).first->second;
}

absl::StatusOr<OpRoleInfo> classifyOp(Op op, bool conservative) {
  OpRoleInfo info;
  if (isa<sdy::DataFlowEdgeOp>(op)) {
    info.role = OpRole::kEdge;
    return info;
  }
  if (isa<sdy::FuncDataFlowEdgeOp>(op)) {
    info.role = OpRole::kFuncEdge;
    return info;
  }
  if (isa<sdy::PropagationBarrierOp>(op)) {
    info.role = OpRole::kBarrier;
    return info;
  }
  if (isTerminatorLike(op)) return info;
  if (const OpShardingRule* attached =
          op.attr(kShardingRuleAttr).as<OpShardingRule>()) {
    info.role = OpRole::kRule;
    info.rule = *attached;
    return info;
  }
  RuleOptions rule_options;
  rule_options.conservative_propagation = conservative;
  absl::StatusOr<std::optional<OpShardingRule>> registry =
      shardingRuleFor(op, rule_options);
  if (!registry.ok()) return opError(op, fromAbsl(registry.status().message()));
  if (registry->has_value()) {
    info.role = OpRole::kRule;
    info.rule = **std::move(registry);
    info.from_registry = true;
    return info;
  }
  // A reshard is an identity on its input, like a sharding constraint.
  if (isa<sdy::ReshardOp>(op) && op.numOperands() == 1 &&
      op.numResults() == 1 && op.result(0).type().isRankedTensor()) {
    IdentityRules identity;
    info.role = OpRole::kRule;
    info.rule = identity.get(op.result(0).type().shape(), 1, 1);
  }
  return info;
}

}  // namespace shardkit
