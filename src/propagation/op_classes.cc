#include "src/propagation/op_classes.h"

#include <string_view>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/strings.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/sharding_site.h"
#include "shardkit/rules/registry.h"

namespace shardkit {
namespace {

// StableHLO ops with the Elementwise or BroadcastingElementwise trait.
// clang-format off
constexpr const char* kElementwiseStablehlo[] = {
    "abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "compare",
    "complex", "convert", "cosine", "count_leading_zeros", "divide",
    "exponential", "exponential_minus_one", "floor", "imag", "is_finite",
    "log", "log_plus_one", "logistic", "map", "maximum", "minimum",
    "multiply", "negate", "not", "or", "popcnt", "power", "real",
    "reduce_precision", "remainder", "round_nearest_afz",
    "round_nearest_even", "rsqrt", "select", "shift_left",
    "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt",
    "subtract", "tan", "tanh", "xor", "uniform_quantize",
    "uniform_dequantize"};
// clang-format on

const absl::flat_hash_set<std::string>& elementwiseOps() {
  static const auto* ops = [] {
    auto* set = new absl::flat_hash_set<std::string>();
    for (const char* op : kElementwiseStablehlo) {
      set->insert(strCat("stablehlo.", op));
    }
    // The sdy ops that forward their input unchanged carry the Elementwise
    // trait too, so they pass through in the first op-priority round.
    for (const char* op : {"sdy.sharding_constraint", "sdy.reshard",
                           "sdy.propagation_barrier"}) {
      set->insert(op);
    }
    return set;
  }();
  return *ops;
}

bool isTerminatorLike(Op op) {
  const OpInfo* info = op.opName().info();
  std::string_view name = op.name();
  return (info && info->is_terminator) || name == "func.func" ||
         name == "sdy.mesh";
}

}  // namespace

bool isElementwiseOp(Op op) {
  if (elementwiseOps().contains(toAbsl(op.name()))) return true;
  // A bitcast between element types of the same width keeps the shape.
  if (op.name() == "stablehlo.bitcast_convert" && op.numOperands() == 1 &&
      op.numResults() == 1) {
    Type in = op.operand(0).type();
    Type out = op.result(0).type();
    return in.isRankedTensor() && out.isRankedTensor() &&
           in.shape() == out.shape();
  }
  return false;
}

OpPriorityKind opPriorityKind(Op op) {
  std::string_view name = op.name();
  if (isElementwiseOp(op) || name == "stablehlo.reshape" ||
      name == "stablehlo.transpose" || name == "sdy.data_flow_edge") {
    return OpPriorityKind::kPassThrough;
  }
  if (name == "stablehlo.dynamic_slice" ||
      name == "stablehlo.dynamic_update_slice") {
    return OpPriorityKind::kForwardPassThrough;
  }
  if (name == "stablehlo.broadcast_in_dim") return OpPriorityKind::kBroadcast;
  return OpPriorityKind::kOther;
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
  std::string_view name = op.name();
  if (name == "sdy.data_flow_edge") {
    info.role = OpRole::kEdge;
    return info;
  }
  if (name == "sdy.propagation_barrier") {
    info.role = OpRole::kBarrier;
    return info;
  }
  if (isTerminatorLike(op)) return info;
  if (const OpShardingRule* attached =
          op.attr(kShardingRuleAttr).asOpShardingRule()) {
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
  if (name == "sdy.reshard" && op.numOperands() == 1 && op.numResults() == 1 &&
      op.result(0).type().isRankedTensor()) {
    IdentityRules identity;
    info.role = OpRole::kRule;
    info.rule = identity.get(op.result(0).type().shape(), 1, 1);
  }
  return info;
}

}  // namespace shardkit
