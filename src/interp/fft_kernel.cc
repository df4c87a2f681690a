// fft: the discrete Fourier transform over the last dimensions (FFT, IFFT,
// RFFT, IRFFT), one dimension at a time, each a direct sum in double
// rounded to the part type.
#include <cmath>
#include <complex>
#include <numbers>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {
namespace {

using C = std::complex<double>;

// The complex elements of a tensor and its shape.
struct Grid {
  std::vector<int64_t> shape;
  std::vector<C> values;

  // The number of elements before and after dimension `dim` in row-major
  // order: element (o, k, i) of a run along `dim` is at (o * n + k) *
  // inner + i for a dimension of size n.
  int64_t outer(int64_t dim) const {
    int64_t size = 1;
    for (int64_t d = 0; d < dim; ++d) size *= shape[d];
    return size;
  }
  int64_t inner(int64_t dim) const {
    int64_t size = 1;
    for (size_t d = dim + 1; d < shape.size(); ++d) size *= shape[d];
    return size;
  }
  // A grid of this shape with `size` entries along `dim`, zero.
  Grid resized(int64_t dim, int64_t size) const {
    Grid g{shape, {}};
    g.shape[dim] = size;
    g.values.assign(outer(dim) * size * inner(dim), 0);
    return g;
  }
};

// The transform along `dim` to `out_size` outputs from the first `in_size`
// inputs (in_size <= shape[dim]); `inverse` uses e^{+2 pi i k n / N} and
// divides by N, where N is `n` (the transform's length).
Grid transform(const Grid& g, int64_t dim, int64_t n, int64_t in_size,
               int64_t out_size, bool inverse) {
  Grid out = g.resized(dim, out_size);
  int64_t inner = g.inner(dim), outer = g.outer(dim);
  double sign = inverse ? 1.0 : -1.0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t k = 0; k < out_size; ++k) {
        C sum = 0;
        for (int64_t j = 0; j < in_size; ++j) {
          // The angle from (k * j) mod n keeps large products exact.
          double angle = sign * 2 * std::numbers::pi *
                         static_cast<double>((k * j) % n) / n;
          sum += g.values[(o * g.shape[dim] + j) * inner + i] *
                 C(std::cos(angle), std::sin(angle));
        }
        out.values[(o * out_size + k) * inner + i] =
            inverse ? sum / double(n) : sum;
      }
    }
  }
  return out;
}

void roundTo(Grid& g, ElementType part) {
  for (C& v : g.values)
    v = {roundFloat(part, v.real()), roundFloat(part, v.imag())};
}

// IRFFT's last dimension: the full spectrum of length n from its first
// n / 2 + 1 entries (X[n - k] = conj(X[k])), then the inverse transform.
Grid inverseReal(const Grid& g, int64_t dim, int64_t n) {
  Grid full = g.resized(dim, n);
  int64_t inner = g.inner(dim), outer = g.outer(dim);
  int64_t have = g.shape[dim];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t k = 0; k < n; ++k) {
        C v = k < have ? g.values[(o * have + k) * inner + i]
                       : std::conj(g.values[(o * have + (n - k)) * inner + i]);
        full.values[(o * n + k) * inner + i] = v;
      }
    }
  }
  return transform(full, dim, n, n, n, true);
}

absl::StatusOr<Results> fft(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  std::string_view type = ctx.enumAttr("fft_type");
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> lengths, ctx.intsAttr("fft_length"));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  int64_t rank = x.rank();
  int64_t fft_rank = static_cast<int64_t>(lengths.size());
  if (fft_rank < 1 || fft_rank > 3 || fft_rank > rank || r.rank() != rank) {
    return evalError("fft_length must name 1 to 3 of the last dimensions");
  }
  bool real_in = type == "RFFT", real_out = type == "IRFFT";
  if (type != "FFT" && type != "IFFT" && !real_in && !real_out) {
    return evalError("fft_type must be FFT, IFFT, RFFT or IRFFT");
  }
  if ((x.kind() == ElementKind::kComplex) == real_in ||
      (r.kind() == ElementKind::kComplex) == real_out ||
      x.kind() == ElementKind::kInteger || r.kind() == ElementKind::kInteger) {
    return evalError(strCat(type, " from ", x.typeText(), " to ", r.typeText(),
                            " has the wrong element types"));
  }
  // The expected shapes: the real side has the lengths, the complex side of
  // RFFT/IRFFT n / 2 + 1 entries in the last dimension.
  std::vector<int64_t> expected_in = x.shape(), expected_out = x.shape();
  for (int64_t k = 0; k < fft_rank; ++k) {
    int64_t d = rank - fft_rank + k;
    expected_in[d] = lengths[k];
    expected_out[d] = lengths[k];
  }
  if (real_in) expected_out.back() = lengths.back() / 2 + 1;
  if (real_out) expected_in.back() = lengths.back() / 2 + 1;
  for (int64_t n : lengths) {
    if (n <= 0) return evalError("fft_length must be > 0");
  }
  if (x.shape() != expected_in || r.shape() != expected_out) {
    return evalError(strCat("shapes ", x.typeText(), " -> ", r.typeText(),
                            " do not match fft_length ", indexText(lengths)));
  }
  ElementType part = partType(real_out ? x.elementType() : r.elementType());
  Grid g{x.shape(), std::vector<C>(x.numElements())};
  for (int64_t i = 0; i < x.numElements(); ++i) g.values[i] = x.valueAt(i);
  int64_t first = rank - fft_rank;
  if (type == "FFT") {
    for (int64_t d = rank - 1; d >= first; --d) {
      g = transform(g, d, g.shape[d], g.shape[d], g.shape[d], false);
      roundTo(g, part);
    }
  } else if (type == "IFFT") {
    for (int64_t d = first; d < rank; ++d) {
      g = transform(g, d, g.shape[d], g.shape[d], g.shape[d], true);
      roundTo(g, part);
    }
  } else if (real_in) {
    int64_t n = lengths.back();
    g = transform(g, rank - 1, n, n, n / 2 + 1, false);
    roundTo(g, part);
    for (int64_t d = rank - 2; d >= first; --d) {
      g = transform(g, d, g.shape[d], g.shape[d], g.shape[d], false);
      roundTo(g, part);
    }
  } else {
    for (int64_t d = first; d < rank - 1; ++d) {
      g = transform(g, d, g.shape[d], g.shape[d], g.shape[d], true);
      roundTo(g, part);
    }
    g = inverseReal(g, rank - 1, lengths.back());
  }
  for (int64_t i = 0; i < r.numElements(); ++i) {
    if (r.kind() == ElementKind::kComplex) {
      r.setComplex(i, g.values[i]);
    } else {
      r.setFloat(i, g.values[i].real());
    }
  }
  return Results{std::move(r)};
}

}  // namespace

void addFftKernel(KernelTable& t) { t.add<stablehlo::FftOp>(&fft); }

}  // namespace shardkit::interp
