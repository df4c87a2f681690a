#include "shardkit/rules/slicing_rules.h"

#include <algorithm>
#include <string_view>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// True if the concatenated pieces are cut out of other tensors, so that a
// sharded concat dim is a reordering of sharded sources.
bool operandsAreSlices(absl::Span<const ConcatOperandSource> sources) {
  if (sources.empty()) return false;
  bool all_slices = true;
  bool any_slice = false;
  bool same_source = true;
  for (const ConcatOperandSource& source : sources) {
    all_slices &= source.is_slice;
    any_slice |= source.is_slice;
    same_source &= source.source == sources.front().source;
  }
  return all_slices || (any_slice && same_source);
}

// Scalar operand shapes, `count` of them, appended to `shapes`.
void appendScalars(std::vector<Shape>& shapes, int64_t count) {
  shapes.insert(shapes.end(), count, Shape{});
}

absl::Status checkOptionalList(std::string_view op, std::string_view what,
                               absl::Span<const int64_t> list, int64_t rank) {
  if (list.empty()) return absl::OkStatus();
  return checkCount(op, what, list.size(), rank);
}

}  // namespace

absl::StatusOr<OpShardingRule> concatenateRule(
    absl::Span<const Shape> operands, const Shape& result, int64_t dimension,
    absl::Span<const ConcatOperandSource> sources, bool conservative) {
  constexpr std::string_view kOp = "concatenate";
  if (operands.empty()) {
    return absl::InvalidArgumentError("concatenate: needs an operand");
  }
  const int64_t rank = rankOf(result);
  SK_RETURN_IF_ERROR(checkDimIndex(kOp, "dimension", dimension, rank));
  for (const Shape& operand : operands) {
    SK_RETURN_IF_ERROR(checkRank(kOp, "operand", operand, rank));
  }
  if (!sources.empty()) {
    SK_RETURN_IF_ERROR(
        checkCount(kOp, "operand sources", sources.size(), operands.size()));
  }
  const FactorType concat_type = operandsAreSlices(sources)
                                     ? FactorType::kPermutation
                                     : FactorType::kNeedReplication;
  return OpShardingRuleBuilder(
             std::vector<Shape>(operands.begin(), operands.end()), {result})
      .addPointwiseIf(
          result, [&](int64_t d) { return !conservative || d != dimension; },
          [&](int64_t d) {
            return d == dimension ? concat_type : FactorType::kPassThrough;
          })
      .build();
}

absl::StatusOr<OpShardingRule> sliceRule(const Shape& operand,
                                         const Shape& result,
                                         bool conservative) {
  SK_RETURN_IF_ERROR(checkRank("slice", "result", result, rankOf(operand)));
  return OpShardingRuleBuilder({operand}, {result})
      .addPointwiseWithDiffTypeForMismatch(operand, result,
                                           FactorType::kPermutation,
                                           /*mismatch_blocked=*/conservative)
      .build();
}

absl::StatusOr<OpShardingRule> padRule(const Shape& operand,
                                       const Shape& result, bool conservative,
                                       absl::Span<const int64_t> low,
                                       absl::Span<const int64_t> high,
                                       absl::Span<const int64_t> interior) {
  constexpr std::string_view kOp = "pad";
  const int64_t rank = rankOf(operand);
  SK_RETURN_IF_ERROR(checkRank(kOp, "result", result, rank));
  SK_RETURN_IF_ERROR(checkOptionalList(kOp, "low paddings", low, rank));
  SK_RETURN_IF_ERROR(checkOptionalList(kOp, "high paddings", high, rank));
  SK_RETURN_IF_ERROR(
      checkOptionalList(kOp, "interior paddings", interior, rank));
  auto padded = [&](int64_t d) {
    return operand[d] != result[d] || (!low.empty() && low[d] != 0) ||
           (!high.empty() && high[d] != 0) ||
           (!interior.empty() && interior[d] != 0);
  };
  OpShardingRuleBuilder builder({operand, {}}, {result});
  for (int64_t d = 0; d < rank; ++d) {
    bool is_padded = padded(d);
    builder.addFactor(
        {d, kNullDim}, {d}, operand[d],
        is_padded ? FactorType::kPermutation : FactorType::kPassThrough,
        is_padded && conservative);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> dynamicSliceRule(const Shape& operand,
                                                const Shape& result) {
  SK_RETURN_IF_ERROR(
      checkRank("dynamic_slice", "result", result, rankOf(operand)));
  std::vector<Shape> operands = {operand};
  appendScalars(operands, rankOf(operand));
  return OpShardingRuleBuilder(std::move(operands), {result})
      .addPointwiseWithDiffTypeForMismatch(operand, result,
                                           FactorType::kNeedReplication,
                                           /*mismatch_blocked=*/true)
      .build();
}

absl::StatusOr<OpShardingRule> dynamicUpdateSliceRule(
    const Shape& operand, const Shape& update, const Shape& result,
    const std::vector<bool>& constant_start_indices) {
  constexpr std::string_view kOp = "dynamic_update_slice";
  const int64_t rank = rankOf(operand);
  SK_RETURN_IF_ERROR(checkRank(kOp, "update", update, rank));
  SK_RETURN_IF_ERROR(checkSameShape(kOp, "operand/result", operand, result));
  if (!constant_start_indices.empty()) {
    SK_RETURN_IF_ERROR(checkCount(kOp, "constant start index flags",
                                  constant_start_indices.size(), rank));
  }
  std::vector<Shape> operands = {operand, update};
  appendScalars(operands, rank);
  OpShardingRuleBuilder builder(operands, {result});
  std::vector<int64_t> dims(operands.size(), kNullDim);
  for (int64_t d = 0; d < rank; ++d) {
    if (operand[d] == update[d]) {
      builder.addFactor(d, operand[d]);
      continue;
    }
    // The operand/result stay sharded (each device updates its own shard
    // with local indices); the update is a separate factor.
    dims[0] = d;
    dims[1] = kNullDim;
    builder.addFactor(dims, {d}, operand[d]);
    dims[0] = kNullDim;
    dims[1] = d;
    bool constant =
        !constant_start_indices.empty() && constant_start_indices[d];
    builder.addFactor(
        dims, {kNullDim}, update[d],
        constant ? FactorType::kPassThrough : FactorType::kNeedReplication);
  }
  return builder.build();
}

}  // namespace shardkit
