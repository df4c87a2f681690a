// OpShardingRuleBuilder: builds an OpShardingRule factor by factor from the
// shapes of an op's operands and results, following the reference's rule
// builder so that the factor numbering of every rule matches it.
//
// A factor is added with its size and, for every operand and result, the
// dimension it maps to (or kNullDim). Adding several factors to the same
// dimension makes it compound, major to minor in the order they were added.
// `build()` gives every dimension that has no factor a fresh factor of size 1
// (operands first, then results, dimension by dimension).
//
// Size-1 factors: a factor of size 1 only ever maps to dimensions of size 1;
// if none of its dimensions has size 1 the factor is not created at all (it
// would carry no sharding). Dimensions of size 1 that get no factor still get
// one from `build()`.
//
// Misuse (a dimension out of range, a list of the wrong length, a negative
// size) does not abort: the builder records the first error, ignores later
// calls and returns that error from `build()`.
#ifndef SHARDKIT_RULES_RULE_BUILDER_H_
#define SHARDKIT_RULES_RULE_BUILDER_H_

#include <cstdint>
#include <functional>
#include <iterator>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// A tensor shape: dimension sizes, kDynamicSize for an unknown one.
using Shape = std::vector<int64_t>;

// Marks an operand/result that a factor does not map to.
inline constexpr int64_t kNullDim = -1;

class OpShardingRuleBuilder {
 public:
  using FactorTypeFn = std::function<FactorType(int64_t dim)>;
  using DimPredicate = std::function<bool(int64_t dim)>;
  using MismatchFn =
      std::function<void(int64_t dim, OpShardingRuleBuilder& builder)>;

  OpShardingRuleBuilder(std::vector<Shape> operand_shapes,
                        std::vector<Shape> result_shapes);

  // The rule of a pointwise op: factor `d` has the size of dimension `d` of the
  // first result and maps to dimension `d` of every tensor (no size-1
  // filtering; every tensor must have the result's rank or rank 0).
  static absl::StatusOr<OpShardingRule> buildPointwise(
      std::vector<Shape> operand_shapes, std::vector<Shape> result_shapes);

  // Adds a factor of `size` mapped to `operand_dims[i]` of operand `i` and
  // `result_dims[j]` of result `j` (kNullDim: not mapped). The lists must have
  // one entry per operand/result.
  OpShardingRuleBuilder& addFactor(absl::Span<const int64_t> operand_dims,
                                   absl::Span<const int64_t> result_dims,
                                   int64_t size,
                                   FactorType type = FactorType::kPassThrough,
                                   bool blocked = false);

  // Adds a factor of `size` mapped to dimension `dim` of every operand and
  // result of rank at least 1 (rank-0 tensors are skipped).
  OpShardingRuleBuilder& addFactor(int64_t dim, int64_t size,
                                   FactorType type = FactorType::kPassThrough,
                                   bool blocked = false);

  // `addFactor(d, shape[d], type(d), blocked)` for every dimension `d`.
  OpShardingRuleBuilder& addPointwise(absl::Span<const int64_t> shape,
                                      const FactorTypeFn& type = nullptr,
                                      bool blocked = false);

  // Like addPointwise, but only for the dimensions that satisfy `pred`.
  OpShardingRuleBuilder& addPointwiseIf(absl::Span<const int64_t> shape,
                                        const DimPredicate& pred,
                                        const FactorTypeFn& type = nullptr);

  // A pointwise factor (of the common size) for each dimension whose size is
  // the same in `in_shape` and `out_shape`; `on_mismatch(d, *this)` for each
  // other dimension. The shapes must have the same rank.
  OpShardingRuleBuilder& addPointwiseIfDimSizesMatch(
      absl::Span<const int64_t> in_shape, absl::Span<const int64_t> out_shape,
      const MismatchFn& on_mismatch = nullptr);

  // A pointwise factor of size `in_shape[d]` for every dimension; dimensions
  // whose sizes differ get `mismatch_type` and are blocked if
  // `mismatch_blocked`.
  OpShardingRuleBuilder& addPointwiseWithDiffTypeForMismatch(
      absl::Span<const int64_t> in_shape, absl::Span<const int64_t> out_shape,
      FactorType mismatch_type = FactorType::kNeedReplication,
      bool mismatch_blocked = false);

  // Low-level API for hand-written rules: a new factor that maps to nothing
  // yet (no size-1 filtering), and explicit dimension mappings (appending to
  // the dimension's factors, i.e. the next more minor factor).
  int64_t newFactor(int64_t size, FactorType type = FactorType::kPassThrough,
                    bool blocked = false);
  OpShardingRuleBuilder& mapOperandDim(int64_t operand, int64_t dim,
                                       int64_t factor);
  OpShardingRuleBuilder& mapResultDim(int64_t result, int64_t dim,
                                      int64_t factor);

  // Marks the rule as user-defined (`custom`).
  OpShardingRuleBuilder& setCustom(bool custom = true);

  int64_t numFactors() const { return rule_.numFactors(); }
  int64_t numOperands() const { return std::ssize(operand_shapes_); }
  int64_t numResults() const { return std::ssize(result_shapes_); }
  const Shape& operandShape(int64_t i) const { return operand_shapes_[i]; }
  const Shape& resultShape(int64_t i) const { return result_shapes_[i]; }

  // The first recorded error, or OK.
  const absl::Status& status() const { return status_; }

  // The rule, with a size-1 factor for every dimension left without one. The
  // builder itself is unchanged.
  absl::StatusOr<OpShardingRule> build() const;

 private:
  // Factor indices per dimension, per tensor.
  using Mapping = std::vector<std::vector<int64_t>>;

  bool fail(std::string_view message);
  bool checkDim(const std::vector<Shape>& shapes, int64_t tensor, int64_t dim,
                std::string_view what);
  void setFactorKind(int64_t factor, FactorType type, bool blocked);
  // mapOperandDim / mapResultDim on `mappings` of tensors of `shapes`.
  void mapDim(std::vector<Mapping>& mappings, const std::vector<Shape>& shapes,
              int64_t tensor, int64_t dim, int64_t factor,
              std::string_view what);

  std::vector<Shape> operand_shapes_;
  std::vector<Shape> result_shapes_;
  // The rule so far but its tensor mappings (factor sizes and kinds, custom),
  // which build() makes from these.
  OpShardingRule rule_;
  std::vector<Mapping> operand_mappings_;
  std::vector<Mapping> result_mappings_;
  absl::Status status_;
};

// Parses a rule in the compact notation, with or without the surrounding
// `<...>` / `#sdy.op_sharding_rule<...>`:
// `([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}`.
absl::StatusOr<OpShardingRule> parseRuleNotation(std::string_view text);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_RULE_BUILDER_H_
