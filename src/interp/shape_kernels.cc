// The ops that build or rearrange tensors without computing on elements:
// constant, iota, reshape, broadcast_in_dim, broadcast, transpose, slice,
// dynamic_slice, dynamic_update_slice, concatenate, pad, reverse and
// get_dimension_size. Each checks its result type against what the
// operands and attributes give (so no index leaves its tensor).
#include <algorithm>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"
#include "src/interp/shape_util.h"

namespace shardkit::interp {
namespace {

absl::Status expectShape(const Tensor& result,
                         absl::Span<const int64_t> expected) {
  if (!std::equal(result.shape().begin(), result.shape().end(),
                  expected.begin(), expected.end())) {
    return evalError(strCat("result type ", result.typeText(),
                            " does not match the shape ", indexText(expected),
                            " its operands give"));
  }
  return absl::OkStatus();
}

absl::Status expectRankList(const std::vector<int64_t>& list, int64_t rank,
                            std::string_view what) {
  if (static_cast<int64_t>(list.size()) != rank) {
    return evalError(strCat(what, " must have one entry per dimension (", rank,
                            "), got ", list.size()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Results> constant(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(Tensor t, ctx.elementsAttr("value"));
  return Results{std::move(t)};
}

absl::StatusOr<Results> iota(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_ASSIGN_OR_RETURN(int64_t dim, ctx.intAttr("iota_dimension"));
  if (dim < 0 || dim >= r.rank())
    return evalError("iota_dimension out of range");
  std::vector<int64_t> index(r.rank(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t v = index[dim];
    switch (r.kind()) {
      case ElementKind::kInteger:
        r.setInt(i, v);
        break;
      case ElementKind::kFloat:
        r.setFloat(i, static_cast<double>(v));
        break;
      case ElementKind::kComplex:
        r.setComplex(i, static_cast<double>(v));
        break;
    }
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> reshape(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(TensorType t, ctx.resultType(0));
  SK_ASSIGN_OR_RETURN(int64_t count, checkedElementCount(t.shape));
  if (count != x.numElements() || t.element != x.elementType()) {
    return evalError(strCat("cannot reshape ", x.typeText(), " to ",
                            ctx.op().result(0).type().str()));
  }
  return Results{x.reshaped(std::move(t.shape))};
}

// broadcast_in_dim: operand dimension i becomes result dimension dims[i]
// (of the same size, or of any size when the operand's is 1).
absl::StatusOr<Results> broadcastInDim(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                      ctx.intsAttr("broadcast_dimensions"));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(expectRankList(dims, x.rank(), "broadcast_dimensions"));
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (dims[i] < 0 || dims[i] >= r.rank() ||
        (x.dim(i) != 1 && x.dim(i) != r.dim(dims[i]))) {
      return evalError(strCat("cannot broadcast ", x.typeText(), " to ",
                              r.typeText(), " along ", indexText(dims)));
    }
  }
  std::vector<int64_t> strides = stridesOf(x.shape());
  std::vector<int64_t> index(r.rank(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t src = 0;
    for (int64_t d = 0; d < x.rank(); ++d) {
      if (x.dim(d) != 1) src += index[dims[d]] * strides[d];
    }
    r.copyElement(i, x, src);
  }
  return Results{std::move(r)};
}

// broadcast: `broadcast_sizes` new leading dimensions.
absl::StatusOr<Results> broadcast(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> sizes,
                      ctx.intsAttr("broadcast_sizes"));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  std::vector<int64_t> expected = sizes;
  expected.insert(expected.end(), x.shape().begin(), x.shape().end());
  SK_RETURN_IF_ERROR(expectShape(r, expected));
  for (int64_t i = 0; i < r.numElements(); ++i) {
    r.copyElement(i, x, x.numElements() ? i % x.numElements() : 0);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> transpose(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> perm, ctx.intsAttr("permutation"));
  SK_RETURN_IF_ERROR(checkPermutation(perm, x.rank(), "permutation"));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  std::vector<int64_t> expected(x.rank());
  for (int64_t i = 0; i < x.rank(); ++i) expected[i] = x.dim(perm[i]);
  SK_RETURN_IF_ERROR(expectShape(r, expected));
  std::vector<int64_t> strides = stridesOf(x.shape());
  std::vector<int64_t> index(r.rank(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t src = 0;
    for (int64_t d = 0; d < r.rank(); ++d) src += index[d] * strides[perm[d]];
    r.copyElement(i, x, src);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> slice(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> start,
                      ctx.intsAttr("start_indices"));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> limit,
                      ctx.intsAttr("limit_indices"));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> strides, ctx.intsAttr("strides"));
  SK_RETURN_IF_ERROR(expectRankList(start, x.rank(), "start_indices"));
  SK_RETURN_IF_ERROR(expectRankList(limit, x.rank(), "limit_indices"));
  SK_RETURN_IF_ERROR(expectRankList(strides, x.rank(), "strides"));
  std::vector<int64_t> expected(x.rank());
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > x.dim(d) ||
        strides[d] <= 0) {
      return evalError(strCat("slice ", indexText(start), " to ",
                              indexText(limit), " by ", indexText(strides),
                              " does not fit ", x.typeText()));
    }
    expected[d] = (limit[d] - start[d] + strides[d] - 1) / strides[d];
  }
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(expectShape(r, expected));
  std::vector<int64_t> src_strides = stridesOf(x.shape());
  std::vector<int64_t> index(r.rank(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t src = 0;
    for (int64_t d = 0; d < r.rank(); ++d) {
      src += (start[d] + index[d] * strides[d]) * src_strides[d];
    }
    r.copyElement(i, x, src);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> dynamicSlice(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.intsAttr("slice_sizes"));
  SK_RETURN_IF_ERROR(expectRankList(sizes, x.rank(), "slice_sizes"));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> start,
                      clampedStarts(ctx, 1, x.shape(), sizes));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(expectShape(r, sizes));
  std::vector<int64_t> src_strides = stridesOf(x.shape());
  std::vector<int64_t> index(r.rank(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t src = 0;
    for (int64_t d = 0; d < r.rank(); ++d) {
      src += (start[d] + index[d]) * src_strides[d];
    }
    r.copyElement(i, x, src);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> dynamicUpdateSlice(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  const Tensor& update = ctx.tensor(1);
  if (update.rank() != x.rank() || update.elementType() != x.elementType()) {
    return evalError("update must have the operand's rank and element type");
  }
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> start,
                      clampedStarts(ctx, 2, x.shape(), update.shape()));
  Tensor r = x;
  std::vector<int64_t> strides = stridesOf(x.shape());
  std::vector<int64_t> index(update.rank(), 0);
  for (int64_t i = 0; i < update.numElements();
       ++i, nextIndex(index, update.shape())) {
    int64_t dst = 0;
    for (int64_t d = 0; d < x.rank(); ++d)
      dst += (start[d] + index[d]) * strides[d];
    r.copyElement(dst, update, i);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> concatenate(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(int64_t dim, ctx.intAttr("dimension"));
  std::vector<Tensor> parts;
  for (size_t i = 0; i < ctx.numOperands(); ++i) parts.push_back(ctx.tensor(i));
  SK_ASSIGN_OR_RETURN(Tensor r, concatenateTensors(parts, dim));
  SK_ASSIGN_OR_RETURN(TensorType t, ctx.resultType(0));
  SK_RETURN_IF_ERROR(expectShape(r, t.shape));
  return Results{std::move(r)};
}

// pad: `edge_padding_low/high` elements (negative: removed) around each
// dimension and `interior_padding` between two elements.
absl::StatusOr<Results> pad(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  const Tensor& value = ctx.tensor(1);
  if (value.rank() != 0 || value.elementType() != x.elementType()) {
    return evalError("padding_value must be a scalar of the operand's type");
  }
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> low,
                      ctx.intsAttr("edge_padding_low"));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> high,
                      ctx.intsAttr("edge_padding_high"));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> interior,
                      ctx.intsAttr("interior_padding"));
  SK_RETURN_IF_ERROR(expectRankList(low, x.rank(), "edge_padding_low"));
  SK_RETURN_IF_ERROR(expectRankList(high, x.rank(), "edge_padding_high"));
  SK_RETURN_IF_ERROR(expectRankList(interior, x.rank(), "interior_padding"));
  std::vector<int64_t> expected(x.rank());
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (interior[d] < 0) return evalError("interior_padding must be >= 0");
    int64_t span = x.dim(d) == 0 ? 0 : x.dim(d) + (x.dim(d) - 1) * interior[d];
    expected[d] = low[d] + span + high[d];
    if (expected[d] < 0) return evalError("padding leaves a negative size");
  }
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(expectShape(r, expected));
  for (int64_t i = 0; i < r.numElements(); ++i) r.copyElement(i, value, 0);
  std::vector<int64_t> strides = stridesOf(r.shape());
  std::vector<int64_t> index(x.rank(), 0);
  for (int64_t i = 0; i < x.numElements(); ++i, nextIndex(index, x.shape())) {
    int64_t dst = 0;
    bool inside = true;
    for (int64_t d = 0; d < x.rank() && inside; ++d) {
      int64_t pos = low[d] + index[d] * (interior[d] + 1);
      inside = pos >= 0 && pos < r.dim(d);
      dst += pos * strides[d];
    }
    if (inside) r.copyElement(dst, x, i);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> reverse(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.intsAttr("dimensions"));
  std::vector<bool> reversed(x.rank(), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= x.rank()) return evalError("dimension out of range");
    reversed[d] = true;
  }
  Tensor r = x;
  std::vector<int64_t> strides = stridesOf(x.shape());
  std::vector<int64_t> index(x.rank(), 0);
  for (int64_t i = 0; i < x.numElements(); ++i, nextIndex(index, x.shape())) {
    int64_t src = 0;
    for (int64_t d = 0; d < x.rank(); ++d) {
      src += (reversed[d] ? x.dim(d) - 1 - index[d] : index[d]) * strides[d];
    }
    r.copyElement(i, x, src);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> getDimensionSize(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(int64_t dim, ctx.intAttr("dimension"));
  const Tensor& x = ctx.tensor(0);
  if (dim < 0 || dim >= x.rank()) return evalError("dimension out of range");
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  if (r.rank() != 0 || r.kind() != ElementKind::kInteger) {
    return evalError("result must be an integer scalar");
  }
  r.setInt(0, x.dim(dim));
  return Results{std::move(r)};
}

}  // namespace

void addShapeKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<ConstantOp>(&constant);
  t.add<IotaOp>(&iota);
  t.add<ReshapeOp>(&reshape);
  t.add<BroadcastInDimOp>(&broadcastInDim);
  t.add<BroadcastOp>(&broadcast);
  t.add<TransposeOp>(&transpose);
  t.add<SliceOp>(&slice);
  t.add<DynamicSliceOp>(&dynamicSlice);
  t.add<DynamicUpdateSliceOp>(&dynamicUpdateSlice);
  t.add<ConcatenateOp>(&concatenate);
  t.add<PadOp>(&pad);
  t.add<ReverseOp>(&reverse);
  t.add<GetDimensionSizeOp>(&getDimensionSize);
}

}  // namespace shardkit::interp
