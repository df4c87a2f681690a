#include "shardkit/rules/collective_rules.h"

#include <string_view>
#include <vector>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// Checks that operands and results are non-empty, pairwise the same rank,
// and that `dims` are dimensions of that rank.
absl::Status checkCollective(std::string_view op,
                             absl::Span<const Shape> operands,
                             absl::Span<const Shape> results,
                             absl::Span<const int64_t> dims) {
  if (operands.empty()) {
    return absl::InvalidArgumentError(strCat(op, ": needs an operand"));
  }
  SK_RETURN_IF_ERROR(
      checkCount(op, "results", results.size(), operands.size()));
  SK_RETURN_IF_ERROR(checkAllSameShape(op, "operands", operands));
  SK_RETURN_IF_ERROR(checkAllSameShape(op, "results", results));
  const int64_t rank = rankOf(operands.front());
  SK_RETURN_IF_ERROR(checkRank(op, "result", results.front(), rank));
  for (int64_t dim : dims) {
    SK_RETURN_IF_ERROR(checkDimIndex(op, "dimension", dim, rank));
  }
  return absl::OkStatus();
}

// A builder with pointwise factors for every dim not in `special`.
OpShardingRuleBuilder pointwiseExcept(absl::Span<const Shape> operands,
                                      absl::Span<const Shape> results,
                                      absl::Span<const int64_t> special) {
  OpShardingRuleBuilder builder(
      std::vector<Shape>(operands.begin(), operands.end()),
      std::vector<Shape>(results.begin(), results.end()));
  builder.addPointwiseIf(operands.front(), [&](int64_t d) {
    for (int64_t s : special) {
      if (d == s) return false;
    }
    return true;
  });
  return builder;
}

// Dim `dim` of the operands and of the results: separate factors, both
// needing replication.
void addSplitFactors(OpShardingRuleBuilder& builder, int64_t dim,
                     int64_t operand_size, int64_t result_size) {
  std::vector<int64_t> operand_dims(builder.numOperands(), dim);
  std::vector<int64_t> no_operands(builder.numOperands(), kNullDim);
  std::vector<int64_t> result_dims(builder.numResults(), dim);
  std::vector<int64_t> no_results(builder.numResults(), kNullDim);
  builder.addFactor(operand_dims, no_results, operand_size,
                    FactorType::kNeedReplication);
  builder.addFactor(no_operands, result_dims, result_size,
                    FactorType::kNeedReplication);
}

}  // namespace

absl::StatusOr<OpShardingRule> allGatherRule(absl::Span<const Shape> operands,
                                             absl::Span<const Shape> results,
                                             int64_t all_gather_dim) {
  SK_RETURN_IF_ERROR(
      checkCollective("all_gather", operands, results, {all_gather_dim}));
  OpShardingRuleBuilder builder =
      pointwiseExcept(operands, results, {all_gather_dim});
  addSplitFactors(builder, all_gather_dim, operands.front()[all_gather_dim],
                  results.front()[all_gather_dim]);
  return builder.build();
}

absl::StatusOr<OpShardingRule> allToAllRule(absl::Span<const Shape> operands,
                                            absl::Span<const Shape> results,
                                            int64_t split_dimension,
                                            int64_t concat_dimension) {
  SK_RETURN_IF_ERROR(checkCollective("all_to_all", operands, results,
                                     {split_dimension, concat_dimension}));
  OpShardingRuleBuilder builder =
      pointwiseExcept(operands, results, {split_dimension, concat_dimension});
  const Shape& in = operands.front();
  const Shape& out = results.front();
  addSplitFactors(builder, split_dimension, in[split_dimension],
                  out[split_dimension]);
  if (concat_dimension != split_dimension) {
    addSplitFactors(builder, concat_dimension, in[concat_dimension],
                    out[concat_dimension]);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> reduceScatterRule(
    absl::Span<const Shape> operands, absl::Span<const Shape> results,
    int64_t scatter_dimension) {
  SK_RETURN_IF_ERROR(checkCollective("reduce_scatter", operands, results,
                                     {scatter_dimension}));
  OpShardingRuleBuilder builder =
      pointwiseExcept(operands, results, {scatter_dimension});
  addSplitFactors(builder, scatter_dimension,
                  operands.front()[scatter_dimension],
                  results.front()[scatter_dimension]);
  return builder.build();
}

}  // namespace shardkit
