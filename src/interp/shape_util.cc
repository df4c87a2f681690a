#include "src/interp/shape_util.h"

#include <algorithm>
#include <limits>

#include "shardkit/interp/literal.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {

absl::Status checkPermutation(absl::Span<const int64_t> perm, int64_t rank,
                              std::string_view what) {
  if (static_cast<int64_t>(perm.size()) != rank) {
    return evalError(strCat(what, " must have ", rank, " entries"));
  }
  return checkDims(perm, rank, what);
}

absl::Status checkDims(absl::Span<const int64_t> dims, int64_t rank,
                       std::string_view what) {
  std::vector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[d]) {
      return evalError(strCat(what, " ", indexText(dims),
                              " are not distinct dimensions of rank ", rank));
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

int64_t indexAt(const Tensor& t, int64_t i) {
  int64_t v = t.intAt(i);
  if (t.elementType() == ElementType::kUI64 && v < 0) {
    return std::numeric_limits<int64_t>::max();
  }
  return v;
}

absl::StatusOr<std::vector<int64_t>> clampedStarts(
    const OpContext& ctx, size_t first, absl::Span<const int64_t> shape,
    absl::Span<const int64_t> sizes) {
  if (ctx.numOperands() != first + shape.size()) {
    return evalError(
        strCat("expected ", shape.size(), " start indices, one per dimension"));
  }
  std::vector<int64_t> start(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    const Tensor& index = ctx.tensor(first + d);
    if (index.rank() != 0 || index.kind() != ElementKind::kInteger ||
        isBool(index.elementType())) {
      return evalError("start indices must be integer scalars");
    }
    if (sizes[d] < 0 || sizes[d] > shape[d]) {
      return evalError(strCat("slice sizes ", indexText(sizes),
                              " do not fit in ", indexText(shape)));
    }
    start[d] = std::clamp<int64_t>(indexAt(index, 0), 0, shape[d] - sizes[d]);
  }
  return start;
}

absl::StatusOr<Tensor> concatenateTensors(absl::Span<const Tensor> parts,
                                          int64_t dim) {
  if (parts.empty()) return evalError("nothing to concatenate");
  const Tensor& first = parts[0];
  if (dim < 0 || dim >= first.rank()) {
    return evalError(strCat("dimension ", dim, " out of range"));
  }
  std::vector<int64_t> shape = first.shape();
  shape[dim] = 0;
  for (const Tensor& p : parts) {
    if (p.elementType() != first.elementType() || p.rank() != first.rank()) {
      return evalError("operands must have one element type and rank");
    }
    for (int64_t d = 0; d < p.rank(); ++d) {
      if (d != dim && p.dim(d) != first.dim(d)) {
        return evalError(strCat("cannot concatenate ", first.typeText(),
                                " and ", p.typeText(), " along ", dim));
      }
    }
    shape[dim] += p.dim(dim);
  }
  SK_ASSIGN_OR_RETURN(Tensor r, Tensor::create(first.elementType(), shape));
  // Each part is a run of `inner` elements per outer index.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (int64_t d = dim + 1; d < r.rank(); ++d) inner *= shape[d];
  int64_t dst = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& p : parts) {
      int64_t run = p.dim(dim) * inner;
      for (int64_t k = 0; k < run; ++k) r.copyElement(dst++, p, o * run + k);
    }
  }
  return r;
}

Tensor sliceTensor(const Tensor& t, absl::Span<const int64_t> start,
                   absl::Span<const int64_t> sizes) {
  Tensor r(t.elementType(), std::vector<int64_t>(sizes.begin(), sizes.end()));
  std::vector<int64_t> strides = stridesOf(t.shape());
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t src = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
      src += (start[d] + index[d]) * strides[d];
    }
    r.copyElement(i, t, src);
  }
  return r;
}

absl::StatusOr<std::vector<Tensor>> splitTensor(const Tensor& t, int64_t count,
                                                int64_t dim) {
  if (dim < 0 || dim >= t.rank()) {
    return evalError(strCat("dimension ", dim, " out of range"));
  }
  if (count <= 0 || t.dim(dim) % count != 0) {
    return evalError(strCat("dimension ", dim, " of ", t.typeText(),
                            " does not split into ", count, " parts"));
  }
  std::vector<int64_t> sizes = t.shape();
  sizes[dim] /= count;
  std::vector<int64_t> start(t.rank(), 0);
  std::vector<Tensor> parts;
  for (int64_t k = 0; k < count; ++k) {
    start[dim] = k * sizes[dim];
    parts.push_back(sliceTensor(t, start, sizes));
  }
  return parts;
}

}  // namespace shardkit::interp
