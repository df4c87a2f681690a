#include "shardkit/rules/pointwise_rules.h"

#include <algorithm>
#include <string_view>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

std::vector<Shape> toVector(absl::Span<const Shape> shapes) {
  return std::vector<Shape>(shapes.begin(), shapes.end());
}

bool contains(absl::Span<const int64_t> list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Checks that `scalar_or_full` is a scalar or has the shape `full`.
absl::Status checkScalarOr(std::string_view op, std::string_view what,
                           const Shape& scalar_or_full, const Shape& full) {
  if (scalar_or_full.empty()) return absl::OkStatus();
  return checkSameShape(op, what, scalar_or_full, full);
}

// `operands` -> `results` with a pass-through factor per dimension of
// `shape` (that every tensor of its rank maps).
absl::StatusOr<OpShardingRule> pointwiseOver(const Shape& shape,
                                             std::vector<Shape> operands,
                                             std::vector<Shape> results) {
  return OpShardingRuleBuilder(std::move(operands), std::move(results))
      .addPointwise(shape)
      .build();
}

// The batch-norm family: `num_full` operands/results of the operand's shape
// and the others 1-D over the feature dim, in the op's order (`full_operand`
// and `full_result` flag which tensors have the operand's shape). Every
// factor is pass-through: each one appears in a full-rank result.
absl::StatusOr<OpShardingRule> batchNormRule(
    std::string_view op, const Shape& operand, int64_t feature_index,
    const std::vector<bool>& full_operand,
    const std::vector<bool>& full_result) {
  const int64_t rank = rankOf(operand);
  SK_RETURN_IF_ERROR(checkDimIndex(op, "feature_index", feature_index, rank));
  const Shape feature = {operand[feature_index]};
  auto shapes_of = [&](const std::vector<bool>& full) {
    std::vector<Shape> shapes;
    shapes.reserve(full.size());
    for (bool f : full) shapes.push_back(f ? operand : feature);
    return shapes;
  };
  OpShardingRuleBuilder builder(shapes_of(full_operand),
                                shapes_of(full_result));
  auto dims_of = [&](const std::vector<bool>& full, int64_t dim) {
    std::vector<int64_t> dims;
    dims.reserve(full.size());
    for (bool f : full) {
      dims.push_back(f ? dim : (dim == feature_index ? 0 : kNullDim));
    }
    return dims;
  };
  for (int64_t d = 0; d < rank; ++d) {
    builder.addFactor(dims_of(full_operand, d), dims_of(full_result, d),
                      operand[d]);
  }
  return builder.build();
}

}  // namespace

absl::StatusOr<OpShardingRule> pointwiseRule(absl::Span<const Shape> operands,
                                             absl::Span<const Shape> results) {
  return OpShardingRuleBuilder::buildPointwise(toVector(operands),
                                               toVector(results));
}

absl::StatusOr<OpShardingRule> identityRule(const Shape& shape,
                                            int64_t num_operands,
                                            int64_t num_results) {
  if (num_operands < 0 || num_results < 0) {
    return absl::InvalidArgumentError("identity rule: negative tensor count");
  }
  return pointwiseOver(shape, std::vector<Shape>(num_operands, shape),
                       std::vector<Shape>(num_results, shape));
}

absl::StatusOr<OpShardingRule> clampRule(const Shape& min, const Shape& operand,
                                         const Shape& max,
                                         const Shape& result) {
  SK_RETURN_IF_ERROR(checkScalarOr("clamp", "min", min, operand));
  SK_RETURN_IF_ERROR(checkScalarOr("clamp", "max", max, operand));
  SK_RETURN_IF_ERROR(
      checkSameShape("clamp", "operand/result", operand, result));
  return pointwiseOver(operand, {min, operand, max}, {result});
}

absl::StatusOr<OpShardingRule> selectRule(const Shape& pred,
                                          const Shape& on_true,
                                          const Shape& on_false,
                                          const Shape& result) {
  SK_RETURN_IF_ERROR(checkScalarOr("select", "pred", pred, result));
  SK_RETURN_IF_ERROR(
      checkSameShape("select", "on_true/result", on_true, result));
  SK_RETURN_IF_ERROR(
      checkSameShape("select", "on_false/result", on_false, result));
  return pointwiseOver(result, {pred, on_true, on_false}, {result});
}

absl::StatusOr<OpShardingRule> bitcastConvertRule(const Shape& operand,
                                                  const Shape& result) {
  const int64_t in_rank = rankOf(operand);
  const int64_t out_rank = rankOf(result);
  if (in_rank - out_rank > 1 || out_rank - in_rank > 1) {
    return absl::InvalidArgumentError(
        "bitcast_convert: operand and result ranks differ by more than one");
  }
  const Shape& common = in_rank < out_rank ? operand : result;
  OpShardingRuleBuilder builder({operand}, {result});
  for (int64_t d = 0; d < rankOf(common); ++d) {
    builder.addFactor({d}, {d}, common[d]);
  }
  // The innermost dimension of the narrower type holds the pieces of one
  // wider element: it cannot be split across devices.
  if (in_rank < out_rank) {
    builder.addFactor({kNullDim}, {out_rank - 1}, result.back(),
                      FactorType::kNeedReplication);
  } else if (in_rank > out_rank) {
    builder.addFactor({in_rank - 1}, {kNullDim}, operand.back(),
                      FactorType::kNeedReplication);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> broadcastInDimRule(
    const Shape& operand, const Shape& result,
    absl::Span<const int64_t> broadcast_dims) {
  constexpr std::string_view kOp = "broadcast_in_dim";
  SK_RETURN_IF_ERROR(checkCount(kOp, "broadcast dimensions",
                                broadcast_dims.size(), operand.size()));
  SK_RETURN_IF_ERROR(
      checkDimList(kOp, "broadcast dimension", broadcast_dims, rankOf(result)));
  std::vector<int64_t> out_to_in(result.size(), kNullDim);
  for (size_t in_dim = 0; in_dim < broadcast_dims.size(); ++in_dim) {
    out_to_in[broadcast_dims[in_dim]] = static_cast<int64_t>(in_dim);
  }
  OpShardingRuleBuilder builder({operand}, {result});
  for (int64_t out_dim = 0; out_dim < rankOf(result); ++out_dim) {
    int64_t in_dim = out_to_in[out_dim];
    int64_t out_size = result[out_dim];
    if (in_dim != kNullDim) {
      int64_t in_size = operand[in_dim];
      if (in_size == 1 && out_size != 1) {
        // Expanded in place: the operand dim keeps its own size-1 factor.
        builder.addFactor({in_dim}, {kNullDim}, 1);
        in_dim = kNullDim;
      } else if (in_size != out_size) {
        return absl::InvalidArgumentError(
            strCat(kOp, ": operand dim ", in_dim, " of size ", in_size,
                   " cannot broadcast to result dim of size ", out_size));
      }
    }
    builder.addFactor({in_dim}, {out_dim}, out_size);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> transposeRule(
    const Shape& operand, const Shape& result,
    absl::Span<const int64_t> permutation) {
  SK_RETURN_IF_ERROR(checkCount("transpose", "permutation entries",
                                permutation.size(), operand.size()));
  SK_RETURN_IF_ERROR(checkRank("transpose", "result", result, rankOf(operand)));
  SK_RETURN_IF_ERROR(checkDimList("transpose", "permutation entry", permutation,
                                  rankOf(operand)));
  OpShardingRuleBuilder builder({operand}, {result});
  for (size_t out_dim = 0; out_dim < permutation.size(); ++out_dim) {
    int64_t in_dim = permutation[out_dim];
    builder.addFactor({in_dim}, {static_cast<int64_t>(out_dim)},
                      operand[in_dim]);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> reverseRule(const Shape& operand,
                                           absl::Span<const int64_t> dims) {
  SK_RETURN_IF_ERROR(
      checkDimList("reverse", "dimension", dims, rankOf(operand)));
  return OpShardingRuleBuilder({operand}, {operand})
      .addPointwise(operand,
                    [&](int64_t d) {
                      return contains(dims, d) ? FactorType::kPermutation
                                               : FactorType::kPassThrough;
                    })
      .build();
}

absl::StatusOr<OpShardingRule> choleskyRule(const Shape& operand) {
  SK_RETURN_IF_ERROR(checkMinRank("cholesky", "operand", operand, 2));
  const int64_t num_batch = rankOf(operand) - 2;
  return OpShardingRuleBuilder({operand}, {operand})
      .addPointwise(operand,
                    [&](int64_t d) {
                      return d < num_batch ? FactorType::kPassThrough
                                           : FactorType::kNeedReplication;
                    })
      .build();
}

absl::StatusOr<OpShardingRule> fftRule(const Shape& operand,
                                       const Shape& result, int64_t fft_rank) {
  const int64_t rank = rankOf(operand);
  SK_RETURN_IF_ERROR(checkRank("fft", "result", result, rank));
  if (fft_rank < 1 || fft_rank > rank) {
    return absl::InvalidArgumentError(
        strCat("fft: fft_length has ", fft_rank,
               " entries, expected 1 to the operand rank ", rank));
  }
  OpShardingRuleBuilder builder({operand}, {result});
  for (int64_t d = 0; d < rank; ++d) {
    if (d < rank - fft_rank) {
      builder.addFactor(d, operand[d]);  // batch dimension
    } else {
      bool truncated = d == rank - 1 && operand.back() != result.back();
      builder.addFactor(d, operand[d], FactorType::kNeedReplication, truncated);
    }
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> sortRule(absl::Span<const Shape> inputs,
                                        int64_t dimension) {
  if (inputs.empty()) {
    return absl::InvalidArgumentError("sort: needs at least one input");
  }
  SK_RETURN_IF_ERROR(checkAllSameShape("sort", "inputs", inputs));
  const Shape& shape = inputs.front();
  SK_RETURN_IF_ERROR(
      checkDimIndex("sort", "dimension", dimension, rankOf(shape)));
  // With nothing else to shard, a sharded sort dim could only be resolved by
  // all-gathering it: do not propagate along it.
  bool blocked = true;
  for (int64_t d = 0; d < rankOf(shape); ++d) {
    if (d != dimension && shape[d] != 1) blocked = false;
  }
  OpShardingRuleBuilder builder(toVector(inputs), toVector(inputs));
  for (int64_t d = 0; d < rankOf(shape); ++d) {
    if (d == dimension) {
      builder.addFactor(d, shape[d], FactorType::kNeedReplication, blocked);
    } else {
      builder.addFactor(d, shape[d]);
    }
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> batchNormInferenceRule(const Shape& operand,
                                                      int64_t feature_index) {
  return batchNormRule("batch_norm_inference", operand, feature_index,
                       {true, false, false, false, false}, {true});
}

absl::StatusOr<OpShardingRule> batchNormTrainingRule(const Shape& operand,
                                                     int64_t feature_index) {
  return batchNormRule("batch_norm_training", operand, feature_index,
                       {true, false, false}, {true, false, false});
}

absl::StatusOr<OpShardingRule> batchNormGradRule(const Shape& operand,
                                                 int64_t feature_index) {
  return batchNormRule("batch_norm_grad", operand, feature_index,
                       {true, false, false, false, true}, {true, false, false});
}

absl::StatusOr<OpShardingRule> rngBitGeneratorRule(const Shape& initial_state,
                                                   const Shape& output_state,
                                                   const Shape& output) {
  SK_RETURN_IF_ERROR(checkSameShape("rng_bit_generator", "state", initial_state,
                                    output_state));
  OpShardingRuleBuilder builder({initial_state}, {output_state, output});
  // The state must stay replicated and must not pass shardings on.
  for (int64_t d = 0; d < rankOf(initial_state); ++d) {
    builder.addFactor({d}, {d, kNullDim}, initial_state[d],
                      FactorType::kNeedReplication, /*blocked=*/true);
  }
  for (int64_t d = 0; d < rankOf(output); ++d) {
    builder.addFactor({kNullDim}, {kNullDim, d}, output[d]);
  }
  return builder.build();
}

}  // namespace shardkit
