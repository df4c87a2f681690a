#include "shardkit/rules/reduction_rules.h"

#include <algorithm>
#include <string_view>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

absl::Status checkWindow(std::string_view op, const WindowPadding& window,
                         int64_t rank) {
  if (window.padding.empty()) return absl::OkStatus();
  return checkCount(op, "padding entries", window.padding.size(), rank);
}

bool isPadded(const WindowPadding& window, int64_t dim) {
  return !window.padding.empty() &&
         (window.padding[dim].first != 0 || window.padding[dim].second != 0);
}

// `inputs` followed by one scalar per input (the init values).
std::vector<Shape> withInits(absl::Span<const Shape> inputs) {
  std::vector<Shape> operands(inputs.begin(), inputs.end());
  operands.insert(operands.end(), inputs.size(), Shape{});
  return operands;
}

absl::Status checkVariadic(std::string_view op, absl::Span<const Shape> inputs,
                           absl::Span<const Shape> results) {
  if (inputs.empty()) {
    return absl::InvalidArgumentError(strCat(op, ": needs an input"));
  }
  SK_RETURN_IF_ERROR(checkCount(op, "results", results.size(), inputs.size()));
  SK_RETURN_IF_ERROR(checkAllSameShape(op, "inputs", inputs));
  return checkAllSameShape(op, "results", results);
}

}  // namespace

absl::StatusOr<OpShardingRule> reduceRule(
    absl::Span<const Shape> inputs, absl::Span<const Shape> results,
    absl::Span<const int64_t> dimensions) {
  constexpr std::string_view kOp = "reduce";
  SK_RETURN_IF_ERROR(checkVariadic(kOp, inputs, results));
  const Shape& in = inputs.front();
  const Shape& out = results.front();
  SK_RETURN_IF_ERROR(checkDimList(kOp, "dimension", dimensions, rankOf(in)));
  SK_RETURN_IF_ERROR(
      checkRank(kOp, "result", out,
                rankOf(in) - static_cast<int64_t>(dimensions.size())));
  const size_t n = inputs.size();
  OpShardingRuleBuilder builder(
      withInits(inputs), std::vector<Shape>(results.begin(), results.end()));
  std::vector<int64_t> operand_dims(2 * n, kNullDim);
  std::vector<int64_t> result_dims(n, kNullDim);
  int64_t out_dim = 0;
  for (int64_t d = 0; d < rankOf(in); ++d) {
    std::fill_n(operand_dims.begin(), n, d);
    if (std::find(dimensions.begin(), dimensions.end(), d) !=
        dimensions.end()) {
      std::fill(result_dims.begin(), result_dims.end(), kNullDim);
      builder.addFactor(operand_dims, result_dims, in[d],
                        FactorType::kReduction);
      continue;
    }
    if (out[out_dim] != in[d]) {
      return absl::InvalidArgumentError(strCat(kOp, ": result dim ", out_dim,
                                               " has size ", out[out_dim],
                                               ", expected ", in[d]));
    }
    std::fill(result_dims.begin(), result_dims.end(), out_dim++);
    builder.addFactor(operand_dims, result_dims, in[d]);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> reduceWindowRule(absl::Span<const Shape> inputs,
                                                absl::Span<const Shape> results,
                                                const WindowPadding& window,
                                                bool conservative) {
  constexpr std::string_view kOp = "reduce_window";
  SK_RETURN_IF_ERROR(checkVariadic(kOp, inputs, results));
  const Shape& in = inputs.front();
  const Shape& out = results.front();
  SK_RETURN_IF_ERROR(checkRank(kOp, "result", out, rankOf(in)));
  SK_RETURN_IF_ERROR(checkWindow(kOp, window, rankOf(in)));
  OpShardingRuleBuilder builder(
      withInits(inputs), std::vector<Shape>(results.begin(), results.end()));
  for (int64_t d = 0; d < rankOf(out); ++d) {
    // The result dim counts windows: sharding the input dim along them moves
    // data between shards unless every window is the element itself.
    bool moves = out[d] != in[d] || isPadded(window, d);
    builder.addFactor(
        d, out[d], moves ? FactorType::kPermutation : FactorType::kPassThrough,
        moves && conservative);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> selectAndScatterRule(const Shape& operand,
                                                    const Shape& source,
                                                    const Shape& result,
                                                    const WindowPadding& window,
                                                    bool conservative) {
  constexpr std::string_view kOp = "select_and_scatter";
  const int64_t rank = rankOf(operand);
  SK_RETURN_IF_ERROR(checkRank(kOp, "source", source, rank));
  SK_RETURN_IF_ERROR(checkSameShape(kOp, "operand/result", operand, result));
  SK_RETURN_IF_ERROR(checkWindow(kOp, window, rank));
  OpShardingRuleBuilder builder({operand, source, {}}, {result});
  for (int64_t d = 0; d < rank; ++d) {
    if (source[d] == operand[d] && !isPadded(window, d)) {
      builder.addFactor(d, operand[d]);
      continue;
    }
    builder.addFactor({kNullDim, d, kNullDim}, {kNullDim}, source[d],
                      FactorType::kNeedReplication, conservative);
    builder.addFactor({d, kNullDim, kNullDim}, {d}, operand[d],
                      FactorType::kPermutation, conservative);
  }
  return builder.build();
}

}  // namespace shardkit
