// The dimension numbers of StableHLO's contracting, gathering and convolving
// ops as plain data: which dimensions of the operands and the result play
// which part. Their attribute texts (`#stablehlo.dot<...>`, ...) are read and
// written by shardkit/text/stablehlo_attr_text.h; the rules take these structs.
#ifndef SHARDKIT_CORE_DIMENSION_NUMBERS_H_
#define SHARDKIT_CORE_DIMENSION_NUMBERS_H_

#include <cstdint>
#include <vector>

namespace shardkit {

// dot_general: `lhs_batching[i]` pairs with `rhs_batching[i]`, and
// `lhs_contracting[i]` with `rhs_contracting[i]`.
struct DotDimensionNumbers {
  std::vector<int64_t> lhs_batching;
  std::vector<int64_t> rhs_batching;
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;

  friend bool operator==(const DotDimensionNumbers&,
                         const DotDimensionNumbers&) = default;
};

// gather(operand, start_indices) and scatter(inputs, scatter_indices,
// updates), which StableHLO defines as duals: gather reads slices of its
// input where scatter writes its updates. Both have the same dimension
// numbers, under other names (gather's, then scatter's, in the comments);
// the attribute texts use those names.
struct SliceDimensionNumbers {
  // `offset_dims`, `update_window_dims`: the dims of the slices (the gather
  // result, the scatter updates) that index within a slice.
  std::vector<int64_t> offset_dims;
  // `collapsed_slice_dims`, `inserted_window_dims`: the input dims that have
  // size 1 in a slice and no dim of their own.
  std::vector<int64_t> collapsed_dims;
  // `operand_batching_dims`, `input_batching_dims`.
  std::vector<int64_t> input_batching_dims;
  // `start_indices_batching_dims`, `scatter_indices_batching_dims`: the
  // indices dims paired with `input_batching_dims`.
  std::vector<int64_t> indices_batching_dims;
  // `start_index_map`, `scatter_dims_to_operand_dims`: the input dim each
  // component of an index vector indexes.
  std::vector<int64_t> index_map;
  // `index_vector_dim`: the indices dim that holds the index vectors.
  int64_t index_vector_dim = 0;

  friend bool operator==(const SliceDimensionNumbers&,
                         const SliceDimensionNumbers&) = default;
};
using GatherDimensionNumbers = SliceDimensionNumbers;
using ScatterDimensionNumbers = SliceDimensionNumbers;

// convolution: the batch and feature dimension of the input and the output,
// the input and output feature dimensions of the kernel, and each one's
// spatial dimensions in order (`input_spatial[k]` is the dimension of the
// k-th spatial dimension). Written `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
struct ConvDimensionNumbers {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;

  friend bool operator==(const ConvDimensionNumbers&,
                         const ConvDimensionNumbers&) = default;
};

}  // namespace shardkit

#endif  // SHARDKIT_CORE_DIMENSION_NUMBERS_H_
