// The ops with a reduction or comparison body: reduce, reduce_window,
// select_and_scatter and sort.
#include <algorithm>
#include <functional>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"
#include "src/interp/reducer.h"
#include "src/interp/shape_util.h"

namespace shardkit::interp {
namespace {

// The first half of the operands are inputs of one shape, the second half
// their rank-0 init values.
absl::Status checkInputsAndInits(const OpContext& ctx) {
  size_t n = ctx.numOperands() / 2;
  if (n == 0 || ctx.numOperands() != 2 * n) {
    return evalError("requires inputs and one init value per input");
  }
  for (size_t k = 0; k < n; ++k) {
    const Tensor& input = ctx.tensor(k);
    const Tensor& init = ctx.tensor(n + k);
    if (input.shape() != ctx.tensor(0).shape()) {
      return evalError("inputs must have one shape");
    }
    if (init.rank() != 0 || init.elementType() != input.elementType()) {
      return evalError("init values must be scalars of their input's type");
    }
  }
  return absl::OkStatus();
}

// Result tensors filled with the init values.
absl::StatusOr<std::vector<Tensor>> initResults(const OpContext& ctx,
                                                size_t n) {
  std::vector<Tensor> results;
  for (size_t k = 0; k < n; ++k) {
    SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(k));
    if (r.elementType() != ctx.tensor(n + k).elementType()) {
      return evalError("results must have their init value's element type");
    }
    for (int64_t i = 0; i < r.numElements(); ++i) {
      r.copyElement(i, ctx.tensor(n + k), 0);
    }
    results.push_back(std::move(r));
  }
  return results;
}

absl::StatusOr<Results> reduce(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_RETURN_IF_ERROR(checkInputsAndInits(ctx));
  size_t n = ctx.numOperands() / 2;
  const Tensor& input = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.intsAttr("dimensions"));
  SK_RETURN_IF_ERROR(checkDims(dims, input.rank(), "dimensions"));
  std::vector<bool> reduced(input.rank(), false);
  for (int64_t d : dims) reduced[d] = true;
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (!reduced[d]) kept.push_back(input.dim(d));
  }
  SK_ASSIGN_OR_RETURN(std::vector<Tensor> results, initResults(ctx, n));
  for (const Tensor& r : results) {
    if (r.shape() != kept) {
      return evalError(strCat("result ", r.typeText(), " must have shape ",
                              indexText(kept)));
    }
  }
  std::vector<Tensor> inputs;
  for (size_t k = 0; k < n; ++k) inputs.push_back(ctx.tensor(k));
  if (ctx.op().numRegions() != 1) return evalError("requires a body");
  Reducer reducer(ctx, ctx.op().region(0), n);
  std::vector<int64_t> result_strides = stridesOf(kept);
  std::vector<int64_t> index(input.rank(), 0);
  for (int64_t i = 0; i < input.numElements();
       ++i, nextIndex(index, input.shape())) {
    int64_t ri = 0;
    for (int64_t d = 0, k = 0; d < input.rank(); ++d) {
      if (!reduced[d]) ri += index[d] * result_strides[k++];
    }
    SK_RETURN_IF_ERROR(reducer.combine(absl::MakeSpan(results), ri,
                                       absl::MakeConstSpan(inputs), i));
  }
  return Results(results.begin(), results.end());
}

// The window geometry of reduce_window and select_and_scatter, per
// dimension.
struct Window {
  std::vector<int64_t> dims, strides, base_dilations, window_dilations;
  std::vector<int64_t> pad_low, pad_high;
};

absl::StatusOr<Window> readWindow(const OpContext& ctx, int64_t rank,
                                  bool dilations) {
  Window w;
  std::vector<int64_t> ones(rank, 1);
  SK_ASSIGN_OR_RETURN(w.dims, ctx.intsAttr("window_dimensions"));
  SK_ASSIGN_OR_RETURN(w.strides, ctx.intsAttrOr("window_strides", ones));
  if (dilations) {
    SK_ASSIGN_OR_RETURN(w.base_dilations,
                        ctx.intsAttrOr("base_dilations", ones));
    SK_ASSIGN_OR_RETURN(w.window_dilations,
                        ctx.intsAttrOr("window_dilations", ones));
  } else {
    w.base_dilations = w.window_dilations = ones;
  }
  w.pad_low.assign(rank, 0);
  w.pad_high.assign(rank, 0);
  if (ctx.op().hasAttr("padding")) {
    SK_ASSIGN_OR_RETURN(Tensor padding, ctx.elementsAttr("padding"));
    if (padding.kind() != ElementKind::kInteger || padding.rank() != 2 ||
        padding.dim(0) != rank || padding.dim(1) != 2) {
      return evalError(strCat("padding must be a ", rank, "x2 integer tensor"));
    }
    for (int64_t d = 0; d < rank; ++d) {
      w.pad_low[d] = padding.intAt(2 * d);
      w.pad_high[d] = padding.intAt(2 * d + 1);
    }
  }
  for (const std::vector<int64_t>* v :
       {&w.dims, &w.strides, &w.base_dilations, &w.window_dilations}) {
    if (static_cast<int64_t>(v->size()) != rank) {
      return evalError("window attributes need one entry per dimension");
    }
    for (int64_t x : *v) {
      if (x <= 0)
        return evalError("window sizes, strides, dilations must be > 0");
    }
  }
  return w;
}

// The number of windows along each dimension of `shape`.
std::vector<int64_t> windowCounts(const Window& w,
                                  absl::Span<const int64_t> shape) {
  std::vector<int64_t> counts(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dilated =
        shape[d] == 0 ? 0 : (shape[d] - 1) * w.base_dilations[d] + 1;
    int64_t padded = dilated + w.pad_low[d] + w.pad_high[d];
    int64_t window = (w.dims[d] - 1) * w.window_dilations[d] + 1;
    counts[d] = padded <= 0 || window > padded
                    ? 0
                    : (padded - window) / w.strides[d] + 1;
  }
  return counts;
}

// The input element at window position `offset` of window `window`, or -1
// for a position of padding (or between dilated elements).
int64_t windowElement(const Window& w, absl::Span<const int64_t> shape,
                      absl::Span<const int64_t> strides,
                      absl::Span<const int64_t> window,
                      absl::Span<const int64_t> offset) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t p = window[d] * w.strides[d] + offset[d] * w.window_dilations[d] -
                w.pad_low[d];
    if (p < 0 || p % w.base_dilations[d] != 0) return -1;
    p /= w.base_dilations[d];
    if (p >= shape[d]) return -1;
    flat += p * strides[d];
  }
  return flat;
}

absl::StatusOr<Results> reduceWindow(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_RETURN_IF_ERROR(checkInputsAndInits(ctx));
  size_t n = ctx.numOperands() / 2;
  const Tensor& input = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(Window w, readWindow(ctx, input.rank(), true));
  std::vector<int64_t> counts = windowCounts(w, input.shape());
  SK_ASSIGN_OR_RETURN(std::vector<Tensor> results, initResults(ctx, n));
  for (const Tensor& r : results) {
    if (r.shape() != counts) {
      return evalError(strCat("result ", r.typeText(), " must have shape ",
                              indexText(counts)));
    }
  }
  std::vector<Tensor> inputs, inits;
  for (size_t k = 0; k < n; ++k) {
    inputs.push_back(ctx.tensor(k));
    inits.push_back(ctx.tensor(n + k));
  }
  if (ctx.op().numRegions() != 1) return evalError("requires a body");
  Reducer reducer(ctx, ctx.op().region(0), n);
  std::vector<int64_t> strides = stridesOf(input.shape());
  std::vector<int64_t> window(input.rank(), 0);
  for (int64_t ri = 0; ri < results[0].numElements();
       ++ri, nextIndex(window, counts)) {
    std::vector<int64_t> offset(input.rank(), 0);
    int64_t size = 1;
    for (int64_t d : w.dims) size *= d;
    for (int64_t k = 0; k < size; ++k, nextIndex(offset, w.dims)) {
      int64_t e = windowElement(w, input.shape(), strides, window, offset);
      // Padding holds the init values.
      if (e < 0) {
        SK_RETURN_IF_ERROR(reducer.combine(absl::MakeSpan(results), ri,
                                           absl::MakeConstSpan(inits), 0));
      } else {
        SK_RETURN_IF_ERROR(reducer.combine(absl::MakeSpan(results), ri,
                                           absl::MakeConstSpan(inputs), e));
      }
    }
  }
  return Results(results.begin(), results.end());
}

// select(a, b) of the select region on two elements of `t`.
absl::StatusOr<bool> selects(OpContext& ctx, const Tensor& t, int64_t a,
                             int64_t b) {
  Tensor x(t.elementType(), {}), y(t.elementType(), {});
  x.copyElement(0, t, a);
  y.copyElement(0, t, b);
  Tensor args[] = {x, y};
  SK_ASSIGN_OR_RETURN(
      std::vector<Tensor> out,
      ctx.eval().runTensorRegion(ctx.op().region(0), args, &ctx.scope()));
  if (out.size() != 1 || out[0].rank() != 0 || !isBool(out[0].elementType())) {
    return evalError("select must return a tensor<i1>");
  }
  return out[0].intAt(0) != 0;
}

absl::StatusOr<Results> selectAndScatter(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& operand = ctx.tensor(0);
  const Tensor& source = ctx.tensor(1);
  const Tensor& init = ctx.tensor(2);
  if (source.elementType() != operand.elementType() || init.rank() != 0 ||
      init.elementType() != operand.elementType()) {
    return evalError("source and init_value must have the operand's type");
  }
  if (ctx.op().numRegions() != 2) return evalError("requires two regions");
  SK_ASSIGN_OR_RETURN(Window w, readWindow(ctx, operand.rank(), false));
  if (windowCounts(w, operand.shape()) != source.shape()) {
    return evalError("source must have one element per window");
  }
  SK_ASSIGN_OR_RETURN(Tensor result, ctx.resultTensor(0));
  if (result.shape() != operand.shape()) {
    return evalError("result must have the operand's shape");
  }
  for (int64_t i = 0; i < result.numElements(); ++i) {
    result.copyElement(i, init, 0);
  }
  Reducer scatter(ctx, ctx.op().region(1), 1);
  std::vector<int64_t> strides = stridesOf(operand.shape());
  std::vector<int64_t> window(operand.rank(), 0);
  int64_t size = 1;
  for (int64_t d : w.dims) size *= d;
  for (int64_t si = 0; si < source.numElements();
       ++si, nextIndex(window, source.shape())) {
    int64_t selected = -1;
    std::vector<int64_t> offset(operand.rank(), 0);
    for (int64_t k = 0; k < size; ++k, nextIndex(offset, w.dims)) {
      int64_t e = windowElement(w, operand.shape(), strides, window, offset);
      if (e < 0) continue;  // padding is never selected
      if (selected < 0) {
        selected = e;
        continue;
      }
      SK_ASSIGN_OR_RETURN(bool keep, selects(ctx, operand, selected, e));
      if (!keep) selected = e;
    }
    if (selected >= 0) {
      SK_RETURN_IF_ERROR(scatter.combine(result, selected, source, si));
    }
  }
  return Results{std::move(result)};
}

// Merge sort of `order` by `less`, which may fail (then the order is
// unspecified and the error returned); stable.
absl::Status mergeSort(
    std::vector<int64_t>& order,
    const std::function<absl::StatusOr<bool>(int64_t, int64_t)>& less) {
  std::vector<int64_t> buffer(order.size());
  for (size_t width = 1; width < order.size(); width *= 2) {
    for (size_t lo = 0; lo < order.size(); lo += 2 * width) {
      size_t mid = std::min(lo + width, order.size());
      size_t hi = std::min(lo + 2 * width, order.size());
      size_t a = lo, b = mid, out = lo;
      while (a < mid && b < hi) {
        // Take from the right run only when it is strictly less: stable.
        SK_ASSIGN_OR_RETURN(bool right_first, less(order[b], order[a]));
        buffer[out++] = right_first ? order[b++] : order[a++];
      }
      while (a < mid) buffer[out++] = order[a++];
      while (b < hi) buffer[out++] = order[b++];
    }
    order.swap(buffer);
  }
  return absl::OkStatus();
}

absl::StatusOr<Results> sort(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  size_t n = ctx.numOperands();
  if (n == 0 || ctx.op().numRegions() != 1) {
    return evalError("requires inputs and a comparator");
  }
  const Tensor& first = ctx.tensor(0);
  for (size_t k = 0; k < n; ++k) {
    if (ctx.tensor(k).shape() != first.shape()) {
      return evalError("inputs must have one shape");
    }
  }
  SK_ASSIGN_OR_RETURN(int64_t dim, ctx.intAttrOr("dimension", -1));
  if (dim < 0) dim += first.rank();
  if (dim < 0 || dim >= first.rank())
    return evalError("dimension out of range");
  std::vector<Tensor> results;
  for (size_t k = 0; k < n; ++k) results.push_back(ctx.tensor(k));
  std::vector<int64_t> strides = stridesOf(first.shape());
  int64_t length = first.dim(dim), stride = strides[dim];
  // Each run along `dim` starts at an index whose `dim` coordinate is 0.
  std::vector<int64_t> outer_shape = first.shape();
  outer_shape[dim] = 1;
  std::vector<int64_t> index(first.rank(), 0);
  int64_t runs = length == 0 ? 0 : first.numElements() / length;
  Region comparator = ctx.op().region(0);
  for (int64_t run = 0; run < runs; ++run, nextIndex(index, outer_shape)) {
    int64_t base = flatIndex(index, strides);
    std::vector<int64_t> order(length);
    for (int64_t i = 0; i < length; ++i) order[i] = base + i * stride;
    auto less = [&](int64_t a, int64_t b) -> absl::StatusOr<bool> {
      std::vector<Tensor> args;
      for (size_t k = 0; k < n; ++k) {
        Tensor x(ctx.tensor(k).elementType(), {});
        x.copyElement(0, ctx.tensor(k), a);
        Tensor y(ctx.tensor(k).elementType(), {});
        y.copyElement(0, ctx.tensor(k), b);
        args.push_back(std::move(x));
        args.push_back(std::move(y));
      }
      SK_ASSIGN_OR_RETURN(
          std::vector<Tensor> out,
          ctx.eval().runTensorRegion(comparator, args, &ctx.scope()));
      if (out.size() != 1 || out[0].rank() != 0 ||
          !isBool(out[0].elementType())) {
        return evalError("comparator must return a tensor<i1>");
      }
      return out[0].intAt(0) != 0;
    };
    SK_RETURN_IF_ERROR(mergeSort(order, less));
    for (size_t k = 0; k < n; ++k) {
      for (int64_t i = 0; i < length; ++i) {
        results[k].copyElement(base + i * stride, ctx.tensor(k), order[i]);
      }
    }
  }
  return Results(results.begin(), results.end());
}

}  // namespace

void addReductionKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<ReduceOp>(&reduce);
  t.add<ReduceWindowOp>(&reduceWindow);
  t.add<SelectAndScatterOp>(&selectAndScatter);
  t.add<SortOp>(&sort);
}

}  // namespace shardkit::interp
