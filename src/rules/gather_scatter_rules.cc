#include "shardkit/rules/gather_scatter_rules.h"

#include <algorithm>
#include <functional>
#include <string_view>

#include "shardkit/rules/shape_checks.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

bool contains(absl::Span<const int64_t> list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// Receives one factor: the input, indices and slices dim it maps to (or
// kNullDim), its size, kind and whether it is blocked.
using AddFactorFn = std::function<void(int64_t input_dim, int64_t indices_dim,
                                       int64_t slices_dim, int64_t size,
                                       FactorType type, bool blocked)>;

struct GatherScatterShapes {
  const Shape& input;
  const Shape& indices;
  const Shape& slices;
};

absl::Status checkSliceDims(std::string_view op, const GatherScatterShapes& s,
                            const SliceDimensionNumbers& dims) {
  SK_RETURN_IF_ERROR(checkCount(op, "indices batching dims",
                                dims.indices_batching_dims.size(),
                                dims.input_batching_dims.size()));
  std::vector<int64_t> input_dims(dims.collapsed_dims.begin(),
                                  dims.collapsed_dims.end());
  input_dims.insert(input_dims.end(), dims.input_batching_dims.begin(),
                    dims.input_batching_dims.end());
  SK_RETURN_IF_ERROR(checkDimList(op, "collapsed/batching input dim",
                                  input_dims, rankOf(s.input)));
  SK_RETURN_IF_ERROR(
      checkDimList(op, "offset dim", dims.offset_dims, rankOf(s.slices)));
  SK_RETURN_IF_ERROR(checkDimList(op, "indices batching dim",
                                  dims.indices_batching_dims,
                                  rankOf(s.indices)));
  if (dims.index_vector_dim < 0 || dims.index_vector_dim > rankOf(s.indices)) {
    return absl::InvalidArgumentError(
        strCat(op, ": index_vector_dim ", dims.index_vector_dim,
               " is out of range for indices of rank ", rankOf(s.indices)));
  }
  return absl::OkStatus();
}

// The factor of slices offset dim `slices_dim` and its input dim.
void addOffsetFactors(bool is_scatter, int64_t input_dim, int64_t slices_dim,
                      const GatherScatterShapes& s, const AddFactorFn& add) {
  constexpr FactorType kPass = FactorType::kPassThrough;
  constexpr FactorType kRep = FactorType::kNeedReplication;
  const int64_t input_size = s.input[input_dim];
  const int64_t slices_size = s.slices[slices_dim];
  if (input_size == slices_size) {
    // Unsliced: the dim passes through.
    add(input_dim, kNullDim, slices_dim, input_size, kPass, false);
  } else if (is_scatter) {
    add(input_dim, kNullDim, kNullDim, input_size, kRep, false);
    add(kNullDim, kNullDim, slices_dim, slices_size, kRep, false);
  } else if (slices_size == 1) {
    // An all-reduce of the result keeps the operand dim sharded.
    add(input_dim, kNullDim, kNullDim, input_size, FactorType::kReduction,
        false);
    add(kNullDim, kNullDim, slices_dim, slices_size, kRep, false);
  } else {
    add(input_dim, kNullDim, slices_dim, input_size, kRep, true);
  }
}

absl::Status addGatherScatterFactors(std::string_view op, bool is_scatter,
                                     bool combiner_is_reduction,
                                     const GatherScatterShapes& s,
                                     const SliceDimensionNumbers& dims,
                                     const AddFactorFn& add) {
  SK_RETURN_IF_ERROR(checkSliceDims(op, s, dims));
  int64_t input_dim = 0;
  int64_t batch_pos = 0;
  for (int64_t slices_dim = 0; slices_dim < rankOf(s.slices); ++slices_dim) {
    if (contains(dims.offset_dims, slices_dim)) {
      while (contains(dims.collapsed_dims, input_dim) ||
             contains(dims.input_batching_dims, input_dim)) {
        ++input_dim;
      }
      if (input_dim >= rankOf(s.input)) {
        return absl::InvalidArgumentError(
            strCat(op, ": more offset dims than uncollapsed input dims"));
      }
      addOffsetFactors(is_scatter, input_dim++, slices_dim, s, add);
      continue;
    }
    // A batch dim of the slices: its indices dim skips index_vector_dim.
    int64_t indices_dim =
        batch_pos < dims.index_vector_dim ? batch_pos : batch_pos + 1;
    ++batch_pos;
    if (indices_dim >= rankOf(s.indices)) {
      return absl::InvalidArgumentError(
          strCat(op, ": slices have more batch dims than the indices"));
    }
    auto it = std::find(dims.indices_batching_dims.begin(),
                        dims.indices_batching_dims.end(), indices_dim);
    bool explicit_batch = it != dims.indices_batching_dims.end();
    int64_t input_batch_dim =
        explicit_batch
            ? dims.input_batching_dims[it - dims.indices_batching_dims.begin()]
            : kNullDim;
    // A scatter batch dim that the input lacks is combined into the input:
    // a reduction if the combiner allows an all-reduce.
    FactorType type = FactorType::kPassThrough;
    if (is_scatter && !explicit_batch) {
      type = combiner_is_reduction ? FactorType::kReduction
                                   : FactorType::kNeedReplication;
    }
    add(input_batch_dim, indices_dim, slices_dim, s.slices[slices_dim], type,
        false);
  }
  for (int64_t collapsed : dims.collapsed_dims) {
    int64_t size = s.input[collapsed];
    FactorType type = FactorType::kPassThrough;
    if (!is_scatter) {
      type = size == 1 ? FactorType::kNeedReplication : FactorType::kReduction;
    }
    add(collapsed, kNullDim, kNullDim, size, type, false);
  }
  if (dims.index_vector_dim < rankOf(s.indices)) {
    add(kNullDim, dims.index_vector_dim, kNullDim,
        s.indices[dims.index_vector_dim], FactorType::kNeedReplication, false);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<OpShardingRule> gatherRule(const Shape& operand,
                                          const Shape& start_indices,
                                          const Shape& result,
                                          const GatherDimensionNumbers& dims) {
  OpShardingRuleBuilder builder({operand, start_indices}, {result});
  SK_RETURN_IF_ERROR(addGatherScatterFactors(
      "gather", /*is_scatter=*/false, /*combiner_is_reduction=*/false,
      {operand, start_indices, result}, dims,
      [&](int64_t input_dim, int64_t indices_dim, int64_t slices_dim,
          int64_t size, FactorType type, bool blocked) {
        builder.addFactor({input_dim, indices_dim}, {slices_dim}, size, type,
                          blocked);
      }));
  return builder.build();
}

absl::StatusOr<OpShardingRule> scatterRule(absl::Span<const Shape> inputs,
                                           const Shape& scatter_indices,
                                           absl::Span<const Shape> updates,
                                           const ScatterDimensionNumbers& dims,
                                           bool combiner_is_reduction) {
  constexpr std::string_view kOp = "scatter";
  if (inputs.empty()) {
    return absl::InvalidArgumentError("scatter: needs an input");
  }
  SK_RETURN_IF_ERROR(checkCount(kOp, "updates", updates.size(), inputs.size()));
  SK_RETURN_IF_ERROR(checkAllSameShape(kOp, "inputs", inputs));
  SK_RETURN_IF_ERROR(checkAllSameShape(kOp, "updates", updates));
  const size_t n = inputs.size();
  std::vector<Shape> operands(inputs.begin(), inputs.end());
  operands.push_back(scatter_indices);
  operands.insert(operands.end(), updates.begin(), updates.end());
  OpShardingRuleBuilder builder(
      std::move(operands), std::vector<Shape>(inputs.begin(), inputs.end()));
  std::vector<int64_t> operand_dims(2 * n + 1);
  std::vector<int64_t> result_dims(n);
  SK_RETURN_IF_ERROR(addGatherScatterFactors(
      kOp, /*is_scatter=*/true, combiner_is_reduction,
      {inputs.front(), scatter_indices, updates.front()}, dims,
      [&](int64_t input_dim, int64_t indices_dim, int64_t slices_dim,
          int64_t size, FactorType type, bool blocked) {
        // Operands: n inputs, the indices, n updates; results: n.
        std::fill_n(operand_dims.begin(), n, input_dim);
        operand_dims[n] = indices_dim;
        std::fill_n(operand_dims.begin() + n + 1, n, slices_dim);
        std::fill(result_dims.begin(), result_dims.end(), input_dim);
        builder.addFactor(operand_dims, result_dims, size, type, blocked);
      }));
  return builder.build();
}

}  // namespace shardkit
