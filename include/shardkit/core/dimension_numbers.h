// The dimension numbers of StableHLO's contracting, gathering and convolving
// ops as plain data: which dimensions of the operands and the result play
// which part. Their attribute texts (`#stablehlo.dot<...>`, ...) are read and
// written by shardkit/text/stablehlo_attrs.h; the rules take these structs.
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

// gather(operand, start_indices).
struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;

  friend bool operator==(const GatherDimensionNumbers&,
                         const GatherDimensionNumbers&) = default;
};

// scatter(inputs, scatter_indices, updates).
struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;

  friend bool operator==(const ScatterDimensionNumbers&,
                         const ScatterDimensionNumbers&) = default;
};

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
