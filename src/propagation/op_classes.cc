#include "src/propagation/op_classes.h"

#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/strings.h"

namespace shardkit {
namespace {

const absl::flat_hash_set<std::string>& elementwiseOps() {
  static const auto* ops = [] {
    auto* set = new absl::flat_hash_set<std::string>();
    for (const char* op :
         {"abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "compare",
          "complex", "convert", "cosine", "count_leading_zeros", "divide",
          "exponential", "exponential_minus_one", "floor", "imag", "is_finite",
          "log", "log_plus_one", "logistic", "map", "maximum", "minimum",
          "multiply", "negate", "not", "or", "popcnt", "power", "real",
          "reduce_precision", "remainder", "round_nearest_afz",
          "round_nearest_even", "rsqrt", "select", "shift_left",
          "shift_right_arithmetic", "shift_right_logical", "sign", "sine",
          "sqrt", "subtract", "tan", "tanh", "xor", "uniform_quantize",
          "uniform_dequantize"}) {
      set->insert(strCat("stablehlo.", op));
    }
    return set;
  }();
  return *ops;
}

}  // namespace

bool isElementwiseOp(Op op) {
  return elementwiseOps().contains(toAbsl(op.name()));
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

}  // namespace shardkit
