// Internal to the interp layer: shape helpers the kernels share (checked
// permutations, clamped start indices, concatenation and splitting).
#ifndef SHARDKIT_SRC_INTERP_SHAPE_UTIL_H_
#define SHARDKIT_SRC_INTERP_SHAPE_UTIL_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/interp/tensor.h"

namespace shardkit::interp {

class OpContext;

// An error unless `perm` is a permutation of [0, rank).
absl::Status checkPermutation(absl::Span<const int64_t> perm, int64_t rank,
                              std::string_view what);
// An error unless `dims` are distinct dimensions in [0, rank).
absl::Status checkDims(absl::Span<const int64_t> dims, int64_t rank,
                       std::string_view what);

// Element `i` of an integer tensor as an index: unsigned values past
// INT64_MAX become INT64_MAX (they clamp like any too-large index).
int64_t indexAt(const Tensor& t, int64_t i);

// The start indices of a dynamic slice of `sizes` out of `shape`: the
// op's rank-0 integer operands from `first` on, one per dimension, each
// clamped to [0, shape[d] - sizes[d]] as the spec says.
absl::StatusOr<std::vector<int64_t>> clampedStarts(
    const OpContext& ctx, size_t first, absl::Span<const int64_t> shape,
    absl::Span<const int64_t> sizes);

// `parts` (of one element type and rank, equal but along `dim`) joined
// along `dim`.
absl::StatusOr<Tensor> concatenateTensors(absl::Span<const Tensor> parts,
                                          int64_t dim);
// The box [start, start + sizes) of `t` (it must fit).
Tensor sliceTensor(const Tensor& t, absl::Span<const int64_t> start,
                   absl::Span<const int64_t> sizes);
// `t` cut along `dim` into `count` equal parts.
absl::StatusOr<std::vector<Tensor>> splitTensor(const Tensor& t, int64_t count,
                                                int64_t dim);

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_SHAPE_UTIL_H_
