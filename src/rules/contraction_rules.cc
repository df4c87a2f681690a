#include "shardkit/rules/contraction_rules.h"

#include <algorithm>
#include <string_view>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

bool contains(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Two sizes that must agree; a dynamic size agrees with anything.
absl::Status checkSizesMatch(std::string_view op, std::string_view what,
                             int64_t a, int64_t b) {
  if (a == b || a == kDynamicSize || b == kDynamicSize) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      strCat(op, ": sizes of ", what, " differ (", a, " vs ", b, ")"));
}

// `size * factor`, dynamic if `size` is, and -2 (matching no size) on
// overflow.
int64_t scaled(int64_t size, int64_t factor) {
  if (size == kDynamicSize) return kDynamicSize;
  int64_t product;
  return __builtin_mul_overflow(size, factor, &product) ? -2 : product;
}

absl::Status checkDotDims(const Shape& lhs, const Shape& rhs,
                          const Shape& result,
                          const DotDimensionNumbers& dims) {
  constexpr std::string_view kOp = "dot_general";
  SK_RETURN_IF_ERROR(checkCount(kOp, "rhs batching dims",
                                dims.rhs_batching.size(),
                                dims.lhs_batching.size()));
  SK_RETURN_IF_ERROR(checkCount(kOp, "rhs contracting dims",
                                dims.rhs_contracting.size(),
                                dims.lhs_contracting.size()));
  std::vector<int64_t> lhs_used = dims.lhs_batching;
  lhs_used.insert(lhs_used.end(), dims.lhs_contracting.begin(),
                  dims.lhs_contracting.end());
  std::vector<int64_t> rhs_used = dims.rhs_batching;
  rhs_used.insert(rhs_used.end(), dims.rhs_contracting.begin(),
                  dims.rhs_contracting.end());
  SK_RETURN_IF_ERROR(
      checkDimList(kOp, "lhs batching/contracting dim", lhs_used, rankOf(lhs)));
  SK_RETURN_IF_ERROR(
      checkDimList(kOp, "rhs batching/contracting dim", rhs_used, rankOf(rhs)));
  const int64_t num_batch = static_cast<int64_t>(dims.lhs_batching.size());
  const int64_t num_contracting =
      static_cast<int64_t>(dims.lhs_contracting.size());
  SK_RETURN_IF_ERROR(
      checkRank(kOp, "result", result,
                rankOf(lhs) + rankOf(rhs) - num_batch - 2 * num_contracting));
  for (size_t i = 0; i < dims.lhs_batching.size(); ++i) {
    SK_RETURN_IF_ERROR(checkSizesMatch(kOp, "batching dims",
                                       lhs[dims.lhs_batching[i]],
                                       rhs[dims.rhs_batching[i]]));
    SK_RETURN_IF_ERROR(checkSizesMatch(kOp, "result batch dim",
                                       lhs[dims.lhs_batching[i]], result[i]));
  }
  for (size_t i = 0; i < dims.lhs_contracting.size(); ++i) {
    SK_RETURN_IF_ERROR(checkSizesMatch(kOp, "contracting dims",
                                       lhs[dims.lhs_contracting[i]],
                                       rhs[dims.rhs_contracting[i]]));
  }
  return absl::OkStatus();
}

absl::Status checkConvDims(const Shape& lhs, const Shape& rhs,
                           const Shape& result,
                           const ConvDimensionNumbers& dims,
                           int64_t batch_group_count,
                           int64_t feature_group_count) {
  constexpr std::string_view kOp = "convolution";
  const int64_t num_spatial = static_cast<int64_t>(dims.input_spatial.size());
  SK_RETURN_IF_ERROR(checkCount(kOp, "kernel spatial dims",
                                dims.kernel_spatial.size(), num_spatial));
  SK_RETURN_IF_ERROR(checkCount(kOp, "output spatial dims",
                                dims.output_spatial.size(), num_spatial));
  SK_RETURN_IF_ERROR(checkRank(kOp, "lhs", lhs, num_spatial + 2));
  SK_RETURN_IF_ERROR(checkRank(kOp, "rhs", rhs, num_spatial + 2));
  SK_RETURN_IF_ERROR(checkRank(kOp, "result", result, num_spatial + 2));
  std::vector<int64_t> in = dims.input_spatial;
  in.push_back(dims.input_batch);
  in.push_back(dims.input_feature);
  std::vector<int64_t> kernel = dims.kernel_spatial;
  kernel.push_back(dims.kernel_input_feature);
  kernel.push_back(dims.kernel_output_feature);
  std::vector<int64_t> out = dims.output_spatial;
  out.push_back(dims.output_batch);
  out.push_back(dims.output_feature);
  SK_RETURN_IF_ERROR(checkDimList(kOp, "input dim", in, rankOf(lhs)));
  SK_RETURN_IF_ERROR(checkDimList(kOp, "kernel dim", kernel, rankOf(rhs)));
  SK_RETURN_IF_ERROR(checkDimList(kOp, "output dim", out, rankOf(result)));
  if (batch_group_count < 1 || feature_group_count < 1 ||
      (batch_group_count > 1 && feature_group_count > 1)) {
    return absl::InvalidArgumentError(
        strCat(kOp, ": invalid group counts batch=", batch_group_count,
               " feature=", feature_group_count));
  }
  int64_t out_features = result[dims.output_feature];
  if (out_features != kDynamicSize &&
      out_features % (batch_group_count * feature_group_count) != 0) {
    return absl::InvalidArgumentError(
        strCat(kOp, ": output feature size ", out_features,
               " is not divisible by the group count"));
  }
  SK_RETURN_IF_ERROR(
      checkSizesMatch(kOp, "input batch / output batch * batch_group_count",
                      lhs[dims.input_batch],
                      scaled(result[dims.output_batch], batch_group_count)));
  SK_RETURN_IF_ERROR(checkSizesMatch(
      kOp, "input feature / kernel input feature * feature_group_count",
      lhs[dims.input_feature],
      scaled(rhs[dims.kernel_input_feature], feature_group_count)));
  return checkSizesMatch(kOp, "kernel output feature / output feature",
                         rhs[dims.kernel_output_feature], out_features);
}

// Adds the two factors of one input spatial dim: the number of windows
// (shared with the output) and the window size (shared with the kernel),
// the larger one first, each capped by what is left of the input dim.
void addSpatialFactors(OpShardingRuleBuilder& builder, int64_t lhs_dim,
                       int64_t rhs_dim, int64_t out_dim, int64_t lhs_size,
                       int64_t num_windows, int64_t window_size) {
  int64_t remaining = lhs_size;
  auto add = [&](int64_t size, bool is_window) {
    size = std::min(remaining, size);
    if (size <= 1) return;
    builder.addFactor(
        {lhs_dim, is_window ? rhs_dim : kNullDim},
        {is_window ? kNullDim : out_dim}, size,
        is_window ? FactorType::kReduction : FactorType::kPermutation);
    remaining /= size;
  };
  if (num_windows >= window_size) {
    add(num_windows, /*is_window=*/false);
    add(window_size, /*is_window=*/true);
  } else {
    add(window_size, /*is_window=*/true);
    add(num_windows, /*is_window=*/false);
  }
}

}  // namespace

absl::StatusOr<OpShardingRule> dotRule(const Shape& lhs, const Shape& rhs,
                                       const Shape& result) {
  const bool lhs_matrix = rankOf(lhs) == 2;
  const bool rhs_matrix = rankOf(rhs) == 2;
  if ((!lhs_matrix && rankOf(lhs) != 1) || (!rhs_matrix && rankOf(rhs) != 1)) {
    return absl::InvalidArgumentError(
        "dot: operands must be vectors or matrices");
  }
  SK_RETURN_IF_ERROR(checkRank("dot", "result", result,
                               int64_t{lhs_matrix} + int64_t{rhs_matrix}));
  OpShardingRuleBuilder builder({lhs, rhs}, {result});
  if (lhs_matrix) builder.addFactor({0, kNullDim}, {0}, lhs[0]);
  if (rhs_matrix) {
    builder.addFactor({kNullDim, 1}, {lhs_matrix ? 1 : 0}, rhs[1]);
  }
  builder.addFactor({lhs_matrix ? 1 : 0, 0}, {kNullDim}, rhs[0],
                    FactorType::kReduction);
  return builder.build();
}

absl::StatusOr<OpShardingRule> dotGeneralRule(const Shape& lhs,
                                              const Shape& rhs,
                                              const Shape& result,
                                              const DotDimensionNumbers& dims) {
  SK_RETURN_IF_ERROR(checkDotDims(lhs, rhs, result, dims));
  OpShardingRuleBuilder builder({lhs, rhs}, {result});
  int64_t out_dim = 0;
  for (size_t i = 0; i < dims.lhs_batching.size(); ++i) {
    int64_t lhs_dim = dims.lhs_batching[i];
    builder.addFactor({lhs_dim, dims.rhs_batching[i]}, {out_dim++},
                      lhs[lhs_dim]);
  }
  for (int64_t d = 0; d < rankOf(lhs); ++d) {
    if (!contains(dims.lhs_batching, d) && !contains(dims.lhs_contracting, d)) {
      builder.addFactor({d, kNullDim}, {out_dim++}, lhs[d]);
    }
  }
  for (int64_t d = 0; d < rankOf(rhs); ++d) {
    if (!contains(dims.rhs_batching, d) && !contains(dims.rhs_contracting, d)) {
      builder.addFactor({kNullDim, d}, {out_dim++}, rhs[d]);
    }
  }
  for (size_t i = 0; i < dims.lhs_contracting.size(); ++i) {
    int64_t lhs_dim = dims.lhs_contracting[i];
    builder.addFactor({lhs_dim, dims.rhs_contracting[i]}, {kNullDim},
                      lhs[lhs_dim], FactorType::kReduction);
  }
  return builder.build();
}

absl::StatusOr<OpShardingRule> convolutionRule(
    const Shape& lhs, const Shape& rhs, const Shape& result,
    const ConvDimensionNumbers& dims, int64_t batch_group_count,
    int64_t feature_group_count, bool conservative) {
  SK_RETURN_IF_ERROR(checkConvDims(lhs, rhs, result, dims, batch_group_count,
                                   feature_group_count));
  OpShardingRuleBuilder builder({lhs, rhs}, {result});
  if (batch_group_count > 1) {
    builder.addFactor({dims.input_batch, dims.kernel_output_feature},
                      {dims.output_feature}, batch_group_count);
  }
  // Per-group batch size.
  builder.addFactor({dims.input_batch, kNullDim}, {dims.output_batch},
                    result[dims.output_batch]);
  if (!conservative) {
    for (size_t i = 0; i < dims.input_spatial.size(); ++i) {
      addSpatialFactors(builder, dims.input_spatial[i], dims.kernel_spatial[i],
                        dims.output_spatial[i], lhs[dims.input_spatial[i]],
                        result[dims.output_spatial[i]],
                        rhs[dims.kernel_spatial[i]]);
    }
  }
  if (feature_group_count > 1) {
    builder.addFactor({dims.input_feature, dims.kernel_output_feature},
                      {dims.output_feature}, feature_group_count);
  }
  // Per-group input features (contracted).
  builder.addFactor({dims.input_feature, dims.kernel_input_feature}, {kNullDim},
                    rhs[dims.kernel_input_feature], FactorType::kReduction);
  // Per-group output features.
  const int64_t out_features = result[dims.output_feature];
  builder.addFactor(
      {kNullDim, dims.kernel_output_feature}, {dims.output_feature},
      out_features == kDynamicSize
          ? kDynamicSize
          : out_features / (batch_group_count * feature_group_count));
  return builder.build();
}

absl::StatusOr<OpShardingRule> triangularSolveRule(const Shape& a,
                                                   const Shape& b,
                                                   const Shape& result,
                                                   bool left_side,
                                                   bool transpose_a) {
  constexpr std::string_view kOp = "triangular_solve";
  SK_RETURN_IF_ERROR(checkMinRank(kOp, "a", a, 2));
  SK_RETURN_IF_ERROR(checkRank(kOp, "b", b, rankOf(a)));
  SK_RETURN_IF_ERROR(checkSameShape(kOp, "b/result", b, result));
  OpShardingRuleBuilder builder({a, b}, {result});
  const int64_t dim1 = rankOf(a) - 2;
  const int64_t dim2 = rankOf(a) - 1;
  builder.addPointwise(Shape(a.begin(), a.end() - 2));
  constexpr FactorType kRep = FactorType::kNeedReplication;
  if (left_side) {
    // op(a) @ x = b.
    int64_t a_free = transpose_a ? dim2 : dim1;
    int64_t a_contracting = transpose_a ? dim1 : dim2;
    builder.addFactor({a_free, dim1}, {kNullDim}, a[a_free], kRep)
        .addFactor({kNullDim, dim2}, {dim2}, b[dim2], kRep)
        .addFactor({a_contracting, kNullDim}, {dim1}, a[a_contracting], kRep);
  } else {
    // x @ op(a) = b.
    int64_t a_free = transpose_a ? dim1 : dim2;
    int64_t a_contracting = transpose_a ? dim2 : dim1;
    builder.addFactor({kNullDim, dim1}, {dim1}, b[dim1], kRep)
        .addFactor({a_free, dim2}, {kNullDim}, a[a_free], kRep)
        .addFactor({a_contracting, kNullDim}, {dim2}, a[a_contracting], kRep);
  }
  return builder.build();
}

}  // namespace shardkit
