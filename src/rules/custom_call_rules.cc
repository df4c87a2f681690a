#include "shardkit/rules/custom_call_rules.h"

#include <algorithm>
#include <array>
#include <vector>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

constexpr std::array<std::string_view, 6> kNoRuleTargets = {
    "sdy_testonly",
    "tpu_custom_call",
    "xla_python_cpu_callback",
    "xla_python_gpu_callback",
    "xla_ffi_python_cpu_callback",
    "xla_ffi_python_gpu_callback"};

constexpr std::array<std::string_view, 13> kPointwiseTargets = {
    "annotate_device_placement",
    "Cholesky",
    "CompactWyHelper",
    "InspectSharding",
    "InvertDiagBlocksLowerTriangular",
    "InvertDiagBlocksUpperTriangular",
    "LayoutConstraint",
    "mhlo.erf",
    "MoveToDevice",
    "MoveToHost",
    "X64SplitHigh",
    "X64SplitLow",
    "xla.megascale.provide_metadata"};

template <size_t N>
bool isIn(const std::array<std::string_view, N>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

using Shapes = absl::Span<const Shape>;

std::vector<Shape> toVector(Shapes shapes) {
  return std::vector<Shape>(shapes.begin(), shapes.end());
}

// The two minor (matrix) dimensions of a batch of matrices.
struct MatrixDims {
  int64_t rows;
  int64_t cols;
};

// Checks the operand/result counts and that operand 0 is a batch of
// matrices; returns its matrix dimensions.
absl::StatusOr<MatrixDims> checkLinalg(std::string_view target, Shapes operands,
                                       Shapes results, size_t num_operands,
                                       size_t num_results) {
  SK_RETURN_IF_ERROR(
      checkCount(target, "operands", operands.size(), num_operands));
  SK_RETURN_IF_ERROR(
      checkCount(target, "results", results.size(), num_results));
  SK_RETURN_IF_ERROR(checkMinRank(target, "operand 0", operands[0], 2));
  return MatrixDims{rankOf(operands[0]) - 2, rankOf(operands[0]) - 1};
}

// A builder whose first factors are the batch dimensions of operand 0 (all
// but its matrix dimensions), pointwise.
OpShardingRuleBuilder batchedMatrixBuilder(Shapes operands, Shapes results) {
  const Shape& matrix = operands[0];
  OpShardingRuleBuilder builder(toVector(operands), toVector(results));
  builder.addPointwise(Shape(matrix.begin(), matrix.end() - 2));
  return builder;
}

// Eigh(a) -> (eigenvectors, eigenvalues): the matrix dims correspond between
// the input and the eigenvectors; the eigenvalues follow the minor one.
absl::StatusOr<OpShardingRule> eighRule(std::string_view /*target*/,
                                        Shapes operands, Shapes results,
                                        const CustomCallContext& /*context*/) {
  SK_ASSIGN_OR_RETURN(MatrixDims m,
                      checkLinalg("Eigh", operands, results, 1, 2));
  const Shape& in = operands[0];
  SK_RETURN_IF_ERROR(checkSameShape("Eigh", "result 0", results[0], in));
  SK_RETURN_IF_ERROR(checkRank("Eigh", "result 1", results[1], m.cols));
  return batchedMatrixBuilder(operands, results)
      .addFactor({m.rows}, {m.rows, kNullDim}, in[m.rows])
      .addFactor({m.cols}, {m.cols, m.rows}, in[m.cols])
      .build();
}

// Qr(a) -> (qr, taus): matrix dims need replication; taus' minor dim is its
// own factor.
absl::StatusOr<OpShardingRule> qrRule(std::string_view target, Shapes operands,
                                      Shapes results,
                                      const CustomCallContext& /*context*/) {
  SK_ASSIGN_OR_RETURN(MatrixDims m,
                      checkLinalg(target, operands, results, 1, 2));
  const Shape& in = operands[0];
  SK_RETURN_IF_ERROR(checkSameShape(target, "result 0", results[0], in));
  SK_RETURN_IF_ERROR(checkRank(target, "result 1", results[1], m.cols));
  constexpr FactorType kRep = FactorType::kNeedReplication;
  return batchedMatrixBuilder(operands, results)
      .addFactor({m.rows}, {m.rows, kNullDim}, in[m.rows], kRep)
      .addFactor({m.cols}, {m.cols, kNullDim}, in[m.cols], kRep)
      .addFactor({kNullDim}, {kNullDim, m.rows}, results[1][m.rows], kRep)
      .build();
}

// ProductOfElementaryHouseholderReflectors(a, taus) -> q.
absl::StatusOr<OpShardingRule> householderRule(
    std::string_view target, Shapes operands, Shapes results,
    const CustomCallContext& /*context*/) {
  SK_ASSIGN_OR_RETURN(MatrixDims m,
                      checkLinalg(target, operands, results, 2, 1));
  const Shape& a = operands[0];
  SK_RETURN_IF_ERROR(checkRank(target, "taus", operands[1], m.cols));
  SK_RETURN_IF_ERROR(checkRank(target, "result", results[0], rankOf(a)));
  constexpr FactorType kRep = FactorType::kNeedReplication;
  return batchedMatrixBuilder(operands, results)
      .addFactor({m.rows, kNullDim}, {m.rows}, a[m.rows], kRep)
      .addFactor({m.cols, kNullDim}, {m.cols}, a[m.cols], kRep)
      .addFactor({kNullDim, m.rows}, {kNullDim}, operands[1][m.rows], kRep)
      .build();
}

// mhlo.topk(operand) -> (values, indices): the top-k dim is blocked.
absl::StatusOr<OpShardingRule> topKRule(std::string_view /*target*/,
                                        Shapes operands, Shapes results,
                                        const CustomCallContext& /*context*/) {
  constexpr std::string_view kTarget = "mhlo.topk";
  SK_RETURN_IF_ERROR(checkCount(kTarget, "operands", operands.size(), 1));
  SK_RETURN_IF_ERROR(checkCount(kTarget, "results", results.size(), 2));
  SK_RETURN_IF_ERROR(checkAllSameShape(kTarget, "results", results));
  SK_RETURN_IF_ERROR(
      checkRank(kTarget, "result", results[0], rankOf(operands[0])));
  return OpShardingRuleBuilder(toVector(operands), toVector(results))
      .addPointwiseWithDiffTypeForMismatch(operands[0], results[0],
                                           FactorType::kNeedReplication,
                                           /*mismatch_blocked=*/true)
      .build();
}

// ApproxTopK/PartialReduce(operand, iota, init_value, init_arg) ->
// (values, indices): the reduced dim has an input factor and a blocked
// result factor.
absl::StatusOr<OpShardingRule> approxTopKRule(
    std::string_view target, Shapes operands, Shapes results,
    const CustomCallContext& /*context*/) {
  SK_RETURN_IF_ERROR(checkCount(target, "operands", operands.size(), 4));
  SK_RETURN_IF_ERROR(checkCount(target, "results", results.size(), 2));
  const Shape& in = operands[0];
  const Shape& out = results[0];
  SK_RETURN_IF_ERROR(checkSameShape(target, "operand 1", operands[1], in));
  SK_RETURN_IF_ERROR(checkRank(target, "init value", operands[2], 0));
  SK_RETURN_IF_ERROR(checkRank(target, "init arg", operands[3], 0));
  SK_RETURN_IF_ERROR(checkAllSameShape(target, "results", results));
  SK_RETURN_IF_ERROR(checkRank(target, "result", out, rankOf(in)));
  OpShardingRuleBuilder builder(toVector(operands), toVector(results));
  for (int64_t d = 0; d < rankOf(in); ++d) {
    if (in[d] == out[d]) {
      builder.addFactor(d, in[d]);
      continue;
    }
    builder.addFactor({d, d, kNullDim, kNullDim}, {kNullDim, kNullDim}, in[d]);
    builder.addFactor({kNullDim, kNullDim, kNullDim, kNullDim}, {d, d}, out[d],
                      FactorType::kNeedReplication, /*blocked=*/true);
  }
  return builder.build();
}

// X64Combine(lo, hi) -> combined: pointwise; if the result seeds an
// rng_bit_generator it must stay replicated, so nothing propagates.
absl::StatusOr<OpShardingRule> x64CombineRule(std::string_view /*target*/,
                                              Shapes operands, Shapes results,
                                              const CustomCallContext& ctx) {
  constexpr std::string_view kTarget = "X64Combine";
  SK_RETURN_IF_ERROR(checkCount(kTarget, "results", results.size(), 1));
  for (const Shape& operand : operands) {
    SK_RETURN_IF_ERROR(checkSameShape(kTarget, "operand", operand, results[0]));
  }
  bool rng = ctx.used_by_rng_bit_generator;
  return OpShardingRuleBuilder(toVector(operands), toVector(results))
      .addPointwise(
          results[0],
          [rng](int64_t) {
            return rng ? FactorType::kNeedReplication
                       : FactorType::kPassThrough;
          },
          /*blocked=*/rng)
      .build();
}

// The targets with a rule of their own, and the rule.
struct SpecialTarget {
  std::string_view name;
  absl::StatusOr<OpShardingRule> (*rule)(std::string_view target,
                                         Shapes operands, Shapes results,
                                         const CustomCallContext& context);
};
constexpr SpecialTarget kSpecialTargets[] = {
    {"X64Combine", x64CombineRule},
    {"Eigh", eighRule},
    {"Qr", qrRule},
    {"QrDecompositionBlock", qrRule},
    {"ProductOfElementaryHouseholderReflectors", householderRule},
    {"mhlo.topk", topKRule},
    {"ApproxTopK", approxTopKRule},
    {"PartialReduce", approxTopKRule}};

const SpecialTarget* findSpecialTarget(std::string_view target) {
  for (const SpecialTarget& special : kSpecialTargets) {
    if (special.name == target) return &special;
  }
  return nullptr;
}

}  // namespace

bool isKnownCustomCallTarget(std::string_view target) {
  return isIn(kNoRuleTargets, target) || isIn(kPointwiseTargets, target) ||
         findSpecialTarget(target) != nullptr;
}

absl::StatusOr<std::optional<OpShardingRule>> customCallRule(
    std::string_view target, absl::Span<const Shape> operands,
    absl::Span<const Shape> results, const CustomCallContext& context) {
  std::optional<absl::StatusOr<OpShardingRule>> rule;
  if (isIn(kPointwiseTargets, target)) {
    rule = OpShardingRuleBuilder::buildPointwise(toVector(operands),
                                                 toVector(results));
  } else if (const SpecialTarget* special = findSpecialTarget(target)) {
    rule = special->rule(target, operands, results, context);
  }
  if (!rule.has_value()) return std::nullopt;  // no rule or unknown target
  if (!rule->ok()) return rule->status();
  return **std::move(rule);
}

}  // namespace shardkit
