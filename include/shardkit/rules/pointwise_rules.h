// Rules of ops that map dimensions one to one (elementwise ops and their
// relatives): every factor is one dimension of the op's iteration space.
// Each factory takes the shapes of all operands and results of the op (in the
// op's order) plus the attributes the rule depends on.
#ifndef SHARDKIT_RULES_POINTWISE_RULES_H_
#define SHARDKIT_RULES_POINTWISE_RULES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Elementwise ops (add, tanh, compare, convert, all_reduce,
// collective_permute, sharding_constraint, ...): factor d is dimension d of
// every tensor; rank-0 operands (scalars) map nothing.
absl::StatusOr<OpShardingRule> pointwiseRule(absl::Span<const Shape> operands,
                                             absl::Span<const Shape> results);

// `n` operands and `m` results all of shape `shape`.
absl::StatusOr<OpShardingRule> identityRule(const Shape& shape,
                                            int64_t num_operands = 1,
                                            int64_t num_results = 1);

// clamp(min, operand, max): min and max may be scalars.
absl::StatusOr<OpShardingRule> clampRule(const Shape& min, const Shape& operand,
                                         const Shape& max, const Shape& result);

// select(pred, on_true, on_false): pred may be a scalar.
absl::StatusOr<OpShardingRule> selectRule(const Shape& pred,
                                          const Shape& on_true,
                                          const Shape& on_false,
                                          const Shape& result);

// bitcast_convert: the extra minor dimension of the narrower element type
// needs replication.
absl::StatusOr<OpShardingRule> bitcastConvertRule(const Shape& operand,
                                                  const Shape& result);

// broadcast_in_dim: operand dim i becomes result dim broadcast_dims[i]; a
// size-1 operand dim that is expanded gets its own size-1 factor.
absl::StatusOr<OpShardingRule> broadcastInDimRule(
    const Shape& operand, const Shape& result,
    absl::Span<const int64_t> broadcast_dims);

// transpose: result dim i is operand dim permutation[i].
absl::StatusOr<OpShardingRule> transposeRule(
    const Shape& operand, const Shape& result,
    absl::Span<const int64_t> permutation);

// reverse: reversed dims are permutation factors.
absl::StatusOr<OpShardingRule> reverseRule(const Shape& operand,
                                           absl::Span<const int64_t> dims);

// cholesky: the two minor (matrix) dims need replication.
absl::StatusOr<OpShardingRule> choleskyRule(const Shape& operand);

// fft over the `fft_rank` minor dims: those need replication; the minor-most
// is also blocked when its size changes (RFFT/IRFFT).
absl::StatusOr<OpShardingRule> fftRule(const Shape& operand,
                                       const Shape& result, int64_t fft_rank);

// sort along `dimension`: that dim needs replication, and is blocked when
// every other dim has size 1.
absl::StatusOr<OpShardingRule> sortRule(absl::Span<const Shape> inputs,
                                        int64_t dimension);

// batch_norm_inference(operand, scale, offset, mean, variance) -> result.
// The 1-D operands map to the feature dim.
absl::StatusOr<OpShardingRule> batchNormInferenceRule(const Shape& operand,
                                                      int64_t feature_index);

// batch_norm_training(operand, scale, offset) -> (output, mean, variance).
// Every dim is a pass-through factor (each appears in `output`; the 1-D
// results map only the feature dim).
absl::StatusOr<OpShardingRule> batchNormTrainingRule(const Shape& operand,
                                                     int64_t feature_index);

// batch_norm_grad(operand, scale, mean, variance, grad_output) ->
// (grad_operand, grad_scale, grad_offset). Mapped like batch_norm_training.
absl::StatusOr<OpShardingRule> batchNormGradRule(const Shape& operand,
                                                 int64_t feature_index);

// rng_bit_generator(initial_state) -> (output_state, output): the state
// needs replication and is blocked; the output dims are free.
absl::StatusOr<OpShardingRule> rngBitGeneratorRule(const Shape& initial_state,
                                                   const Shape& output_state,
                                                   const Shape& output);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_POINTWISE_RULES_H_
