// gather and scatter, by the spec's index arithmetic (start indices,
// batching dimensions, collapsed or inserted window dimensions). gather
// clamps its start indices; scatter leaves out updates whose index falls
// outside the result.
#include <algorithm>

#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"
#include "src/interp/reducer.h"
#include "src/interp/shape_util.h"

namespace shardkit::interp {
namespace {

bool contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The dims of the slices (gather's result, scatter's updates) and of the
// indices that gather and scatter share.
struct IndexLayout {
  const SliceDimensionNumbers& dims;
  const Tensor& indices;
  int64_t operand_rank;
  // The slice-side dims that are not offset (window) dims, in order: they
  // index the indices tensor (without its index vector dim).
  std::vector<int64_t> batch_dims;

  // The number of index vector components.
  int64_t vectorSize() const {
    return dims.index_vector_dim < indices.rank()
               ? indices.dim(dims.index_vector_dim)
               : 1;
  }
  // The indices dim of batch coordinate k.
  int64_t indicesDim(int64_t k) const {
    return k < dims.index_vector_dim ? k : k + 1;
  }

  // The operand index of slice index `si` (before gather's clamping):
  // `start` gets the start index per operand dim (0 elsewhere), `offset`
  // the rest (batching and window coordinates).
  void split(absl::Span<const int64_t> si, std::vector<int64_t>& start,
             std::vector<int64_t>& offset) const {
    std::vector<int64_t> istrides = stridesOf(indices.shape());
    int64_t base = 0;
    for (size_t k = 0; k < batch_dims.size(); ++k) {
      base += si[batch_dims[k]] * istrides[indicesDim(k)];
    }
    start.assign(operand_rank, 0);
    int64_t vstride = dims.index_vector_dim < indices.rank()
                          ? istrides[dims.index_vector_dim]
                          : 0;
    for (size_t c = 0; c < dims.index_map.size(); ++c) {
      start[dims.index_map[c]] = indexAt(indices, base + c * vstride);
    }
    offset.assign(operand_rank, 0);
    for (size_t i = 0; i < dims.input_batching_dims.size(); ++i) {
      int64_t d_start = dims.indices_batching_dims[i];
      int64_t k = d_start < dims.index_vector_dim ? d_start : d_start - 1;
      offset[dims.input_batching_dims[i]] = si[batch_dims[k]];
    }
    // Window coordinates fill the operand dims that are neither collapsed
    // nor batching, in order.
    size_t w = 0;
    for (int64_t d = 0; d < operand_rank; ++d) {
      if (contains(dims.collapsed_dims, d) ||
          contains(dims.input_batching_dims, d)) {
        continue;
      }
      if (w < dims.offset_dims.size()) offset[d] = si[dims.offset_dims[w++]];
    }
  }
};

absl::Status checkLayout(const SliceDimensionNumbers& dims,
                         const Tensor& indices, int64_t operand_rank,
                         int64_t slice_rank) {
  if (dims.index_vector_dim < 0 || dims.index_vector_dim > indices.rank()) {
    return evalError("index_vector_dim out of range");
  }
  SK_RETURN_IF_ERROR(checkDims(dims.offset_dims, slice_rank, "window dims"));
  std::vector<int64_t> operand_dims = dims.collapsed_dims;
  operand_dims.insert(operand_dims.end(), dims.input_batching_dims.begin(),
                      dims.input_batching_dims.end());
  SK_RETURN_IF_ERROR(
      checkDims(operand_dims, operand_rank, "collapsed and batching dims"));
  SK_RETURN_IF_ERROR(checkDims(dims.index_map, operand_rank, "index map"));
  if (dims.input_batching_dims.size() != dims.indices_batching_dims.size()) {
    return evalError("batching dims must pair up");
  }
  for (int64_t d : dims.indices_batching_dims) {
    if (d < 0 || d >= indices.rank() || d == dims.index_vector_dim) {
      return evalError("indices batching dims out of range");
    }
  }
  int64_t vector = dims.index_vector_dim < indices.rank()
                       ? indices.dim(dims.index_vector_dim)
                       : 1;
  if (static_cast<int64_t>(dims.index_map.size()) != vector) {
    return evalError("the index map must name one dim per index component");
  }
  int64_t batch_rank =
      indices.rank() - (dims.index_vector_dim < indices.rank() ? 1 : 0);
  if (slice_rank !=
          batch_rank + static_cast<int64_t>(dims.offset_dims.size()) ||
      operand_rank !=
          static_cast<int64_t>(dims.offset_dims.size() + operand_dims.size())) {
    return evalError("window dims do not match the operand's rank");
  }
  if (indices.kind() != ElementKind::kInteger ||
      isBool(indices.elementType())) {
    return evalError("indices must be integers");
  }
  return absl::OkStatus();
}

std::vector<int64_t> batchDims(const SliceDimensionNumbers& dims,
                               int64_t slice_rank) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < slice_rank; ++d) {
    if (!contains(dims.offset_dims, d)) out.push_back(d);
  }
  return out;
}

absl::StatusOr<Results> gather(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& operand = ctx.tensor(0);
  const Tensor& indices = ctx.tensor(1);
  std::optional<GatherDimensionNumbers> dims =
      getGatherDimensionNumbers(ctx.op().attr("dimension_numbers"));
  if (!dims) return evalError("requires dimension_numbers");
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.intsAttr("slice_sizes"));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkLayout(*dims, indices, operand.rank(), r.rank()));
  if (static_cast<int64_t>(sizes.size()) != operand.rank()) {
    return evalError("slice_sizes must have one entry per operand dim");
  }
  IndexLayout layout{*dims, indices, operand.rank(),
                     batchDims(*dims, r.rank())};
  // The expected result shape: batch dims from the indices, window dims
  // from the slice sizes.
  std::vector<int64_t> expected(r.rank());
  for (size_t k = 0; k < layout.batch_dims.size(); ++k) {
    expected[layout.batch_dims[k]] = indices.dim(layout.indicesDim(k));
  }
  size_t w = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (sizes[d] < 0 || sizes[d] > operand.dim(d)) {
      return evalError("slice_sizes do not fit the operand");
    }
    if (contains(dims->collapsed_dims, d) ||
        contains(dims->input_batching_dims, d)) {
      if (sizes[d] > 1) return evalError("collapsed dims must have size 1");
      continue;
    }
    expected[dims->offset_dims[w++]] = sizes[d];
  }
  if (r.shape() != expected) {
    return evalError(strCat("result ", r.typeText(), " must have shape ",
                            indexText(expected)));
  }
  std::vector<int64_t> strides = stridesOf(operand.shape());
  std::vector<int64_t> index(r.rank(), 0), start, offset;
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    layout.split(index, start, offset);
    int64_t src = 0;
    for (int64_t d = 0; d < operand.rank(); ++d) {
      int64_t s = std::clamp<int64_t>(start[d], 0, operand.dim(d) - sizes[d]);
      int64_t p = s + offset[d];
      if (p < 0 || p >= operand.dim(d)) {
        return evalError("a batching index is outside the operand");
      }
      src += p * strides[d];
    }
    r.copyElement(i, operand, src);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> scatter(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  size_t n = (ctx.numOperands() - 1) / 2;
  if (n == 0 || ctx.numOperands() != 2 * n + 1) {
    return evalError("requires inputs, indices and one update per input");
  }
  std::optional<ScatterDimensionNumbers> dims =
      getScatterDimensionNumbers(ctx.op().attr("scatter_dimension_numbers"));
  if (!dims) return evalError("requires scatter_dimension_numbers");
  const Tensor& input = ctx.tensor(0);
  const Tensor& indices = ctx.tensor(n);
  const Tensor& update = ctx.tensor(n + 1);
  std::vector<Tensor> results, updates;
  for (size_t k = 0; k < n; ++k) {
    if (ctx.tensor(k).shape() != input.shape() ||
        ctx.tensor(n + 1 + k).shape() != update.shape()) {
      return evalError("inputs (updates) must have one shape");
    }
    results.push_back(ctx.tensor(k));
    updates.push_back(ctx.tensor(n + 1 + k));
  }
  SK_RETURN_IF_ERROR(checkLayout(*dims, indices, input.rank(), update.rank()));
  IndexLayout layout{*dims, indices, input.rank(),
                     batchDims(*dims, update.rank())};
  for (size_t k = 0; k < layout.batch_dims.size(); ++k) {
    if (update.dim(layout.batch_dims[k]) != indices.dim(layout.indicesDim(k))) {
      return evalError("updates' scatter dims must match the indices");
    }
  }
  if (ctx.op().numRegions() != 1) return evalError("requires a computation");
  Reducer reducer(ctx, ctx.op().region(0), n);
  std::vector<int64_t> strides = stridesOf(input.shape());
  std::vector<int64_t> index(update.rank(), 0), start, offset;
  for (int64_t i = 0; i < update.numElements();
       ++i, nextIndex(index, update.shape())) {
    layout.split(index, start, offset);
    int64_t dst = 0;
    bool inside = true;
    for (int64_t d = 0; d < input.rank() && inside; ++d) {
      int64_t p = start[d] + offset[d];
      inside = p >= 0 && p < input.dim(d);
      dst += p * strides[d];
    }
    if (!inside) continue;
    SK_RETURN_IF_ERROR(reducer.combine(absl::MakeSpan(results), dst,
                                       absl::MakeConstSpan(updates), i));
  }
  return Results(results.begin(), results.end());
}

}  // namespace

void addGatherScatterKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<GatherOp>(&gather);
  t.add<ScatterOp>(&scatter);
}

}  // namespace shardkit::interp
