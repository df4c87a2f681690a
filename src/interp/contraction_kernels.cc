// The contractions: dot, dot_general and convolution (with feature and
// batch groups, padding, dilations and window reversal).
#include <algorithm>

#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/accumulator.h"
#include "src/interp/evaluator.h"
#include "src/interp/shape_util.h"

namespace shardkit::interp {
namespace {

absl::Status checkOperandKinds(const Tensor& lhs, const Tensor& rhs,
                               const Tensor& result) {
  bool ints = result.kind() == ElementKind::kInteger;
  for (const Tensor* t : {&lhs, &rhs}) {
    if ((t->kind() == ElementKind::kInteger) != ints ||
        (t->kind() == ElementKind::kComplex &&
         result.kind() != ElementKind::kComplex)) {
      return evalError(strCat("cannot compute ", result.typeText(), " from ",
                              lhs.typeText(), " and ", rhs.typeText()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Tensor> dotGeneral(OpContext& ctx, const Tensor& lhs,
                                  const Tensor& rhs,
                                  const DotDimensionNumbers& dims) {
  if (dims.lhs_batching.size() != dims.rhs_batching.size() ||
      dims.lhs_contracting.size() != dims.rhs_contracting.size()) {
    return evalError("batching and contracting dimensions must pair up");
  }
  std::vector<int64_t> lhs_used = dims.lhs_batching;
  lhs_used.insert(lhs_used.end(), dims.lhs_contracting.begin(),
                  dims.lhs_contracting.end());
  std::vector<int64_t> rhs_used = dims.rhs_batching;
  rhs_used.insert(rhs_used.end(), dims.rhs_contracting.begin(),
                  dims.rhs_contracting.end());
  SK_RETURN_IF_ERROR(checkDims(lhs_used, lhs.rank(), "lhs dimensions"));
  SK_RETURN_IF_ERROR(checkDims(rhs_used, rhs.rank(), "rhs dimensions"));
  for (size_t i = 0; i < lhs_used.size(); ++i) {
    if (lhs.dim(lhs_used[i]) != rhs.dim(rhs_used[i])) {
      return evalError(strCat("lhs dimension ", lhs_used[i],
                              " and rhs "
                              "dimension ",
                              rhs_used[i], " differ in size"));
    }
  }
  auto free = [](const Tensor& t, const std::vector<int64_t>& used) {
    std::vector<int64_t> out;
    for (int64_t d = 0; d < t.rank(); ++d) {
      if (std::find(used.begin(), used.end(), d) == used.end())
        out.push_back(d);
    }
    return out;
  };
  std::vector<int64_t> lhs_free = free(lhs, lhs_used);
  std::vector<int64_t> rhs_free = free(rhs, rhs_used);
  std::vector<int64_t> shape;
  for (int64_t d : dims.lhs_batching) shape.push_back(lhs.dim(d));
  for (int64_t d : lhs_free) shape.push_back(lhs.dim(d));
  for (int64_t d : rhs_free) shape.push_back(rhs.dim(d));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  if (r.shape() != shape) {
    return evalError(
        strCat("result ", r.typeText(), " must have shape ", indexText(shape)));
  }
  SK_RETURN_IF_ERROR(checkOperandKinds(lhs, rhs, r));
  std::vector<int64_t> contract_shape;
  for (int64_t d : dims.lhs_contracting) contract_shape.push_back(lhs.dim(d));
  int64_t contract_size = 1;
  for (int64_t d : contract_shape) contract_size *= d;
  std::vector<int64_t> ls = stridesOf(lhs.shape()), rs = stridesOf(rhs.shape());
  DotAccumulator acc(r.elementType());
  std::vector<int64_t> index(r.rank(), 0);
  size_t nb = dims.lhs_batching.size();
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t lbase = 0, rbase = 0;
    for (size_t k = 0; k < nb; ++k) {
      lbase += index[k] * ls[dims.lhs_batching[k]];
      rbase += index[k] * rs[dims.rhs_batching[k]];
    }
    for (size_t k = 0; k < lhs_free.size(); ++k) {
      lbase += index[nb + k] * ls[lhs_free[k]];
    }
    for (size_t k = 0; k < rhs_free.size(); ++k) {
      rbase += index[nb + lhs_free.size() + k] * rs[rhs_free[k]];
    }
    acc.reset();
    std::vector<int64_t> c(contract_shape.size(), 0);
    for (int64_t k = 0; k < contract_size; ++k, nextIndex(c, contract_shape)) {
      int64_t li = lbase, ri = rbase;
      for (size_t j = 0; j < c.size(); ++j) {
        li += c[j] * ls[dims.lhs_contracting[j]];
        ri += c[j] * rs[dims.rhs_contracting[j]];
      }
      acc.add(lhs, li, rhs, ri);
    }
    acc.store(r, i);
  }
  return r;
}

absl::StatusOr<Results> dotGeneralKernel(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  std::optional<DotDimensionNumbers> dims =
      getDotDimensionNumbers(ctx.op().attr("dot_dimension_numbers"));
  if (!dims) return evalError("requires dot_dimension_numbers");
  SK_ASSIGN_OR_RETURN(Tensor r,
                      dotGeneral(ctx, ctx.tensor(0), ctx.tensor(1), *dims));
  return Results{std::move(r)};
}

// dot: a vector or matrix times a vector or matrix.
absl::StatusOr<Results> dot(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& lhs = ctx.tensor(0);
  const Tensor& rhs = ctx.tensor(1);
  if (lhs.rank() < 1 || lhs.rank() > 2 || rhs.rank() < 1 || rhs.rank() > 2) {
    return evalError("takes vectors and matrices");
  }
  DotDimensionNumbers dims;
  dims.lhs_contracting = {lhs.rank() - 1};
  dims.rhs_contracting = {0};
  SK_ASSIGN_OR_RETURN(Tensor r, dotGeneral(ctx, lhs, rhs, dims));
  return Results{std::move(r)};
}

struct ConvGeometry {
  std::vector<int64_t> strides, lhs_dilation, rhs_dilation;
  std::vector<int64_t> pad_low, pad_high;
  std::vector<bool> reversal;
};

absl::StatusOr<ConvGeometry> readGeometry(const OpContext& ctx,
                                          size_t spatial) {
  ConvGeometry g;
  std::vector<int64_t> ones(spatial, 1);
  SK_ASSIGN_OR_RETURN(g.strides, ctx.intsAttrOr("window_strides", ones));
  SK_ASSIGN_OR_RETURN(g.lhs_dilation, ctx.intsAttrOr("lhs_dilation", ones));
  SK_ASSIGN_OR_RETURN(g.rhs_dilation, ctx.intsAttrOr("rhs_dilation", ones));
  g.pad_low.assign(spatial, 0);
  g.pad_high.assign(spatial, 0);
  if (ctx.op().hasAttr("padding")) {
    SK_ASSIGN_OR_RETURN(Tensor padding, ctx.elementsAttr("padding"));
    if (padding.kind() != ElementKind::kInteger ||
        padding.numElements() != 2 * static_cast<int64_t>(spatial)) {
      return evalError(
          strCat("padding must be a ", spatial, "x2 integer tensor"));
    }
    for (size_t d = 0; d < spatial; ++d) {
      g.pad_low[d] = padding.intAt(2 * d);
      g.pad_high[d] = padding.intAt(2 * d + 1);
    }
  }
  g.reversal.assign(spatial, false);
  if (std::optional<std::vector<int64_t>> rev =
          ctx.op().attr("window_reversal").intList()) {
    if (rev->size() != spatial) return evalError("window_reversal size");
    for (size_t d = 0; d < spatial; ++d) g.reversal[d] = (*rev)[d] != 0;
  }
  for (const std::vector<int64_t>* v :
       {&g.strides, &g.lhs_dilation, &g.rhs_dilation}) {
    if (v->size() != spatial) {
      return evalError(
          "window attributes need one entry per spatial "
          "dimension");
    }
    for (int64_t x : *v) {
      if (x <= 0) return evalError("strides and dilations must be > 0");
    }
  }
  return g;
}

absl::StatusOr<Results> convolution(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& lhs = ctx.tensor(0);
  const Tensor& rhs = ctx.tensor(1);
  std::optional<ConvDimensionNumbers> dn =
      getConvDimensionNumbers(ctx.op().attr("dimension_numbers"));
  if (!dn) return evalError("requires dimension_numbers");
  size_t spatial = dn->input_spatial.size();
  if (dn->kernel_spatial.size() != spatial ||
      dn->output_spatial.size() != spatial) {
    return evalError("spatial dimensions must pair up");
  }
  std::vector<int64_t> in_dims = dn->input_spatial;
  in_dims.push_back(dn->input_batch);
  in_dims.push_back(dn->input_feature);
  std::vector<int64_t> k_dims = dn->kernel_spatial;
  k_dims.push_back(dn->kernel_input_feature);
  k_dims.push_back(dn->kernel_output_feature);
  std::vector<int64_t> out_dims = dn->output_spatial;
  out_dims.push_back(dn->output_batch);
  out_dims.push_back(dn->output_feature);
  SK_RETURN_IF_ERROR(checkPermutation(in_dims, lhs.rank(), "input dims"));
  SK_RETURN_IF_ERROR(checkPermutation(k_dims, rhs.rank(), "kernel dims"));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkPermutation(out_dims, r.rank(), "output dims"));
  SK_RETURN_IF_ERROR(checkOperandKinds(lhs, rhs, r));
  SK_ASSIGN_OR_RETURN(ConvGeometry g, readGeometry(ctx, spatial));
  SK_ASSIGN_OR_RETURN(int64_t fgc, ctx.intAttrOr("feature_group_count", 1));
  SK_ASSIGN_OR_RETURN(int64_t bgc, ctx.intAttrOr("batch_group_count", 1));
  int64_t batch = lhs.dim(dn->input_batch);
  int64_t features = lhs.dim(dn->input_feature);
  int64_t kin = rhs.dim(dn->kernel_input_feature);
  int64_t kout = rhs.dim(dn->kernel_output_feature);
  if (fgc <= 0 || bgc <= 0 || features % fgc != 0 || features / fgc != kin ||
      kout % fgc != 0 || batch % bgc != 0 || kout % bgc != 0) {
    return evalError(
        "feature and batch group counts do not fit the "
        "operands");
  }
  std::vector<int64_t> expected(r.rank());
  expected[dn->output_batch] = batch / bgc;
  expected[dn->output_feature] = kout;
  for (size_t d = 0; d < spatial; ++d) {
    int64_t in = lhs.dim(dn->input_spatial[d]);
    int64_t dilated = in == 0 ? 0 : (in - 1) * g.lhs_dilation[d] + 1;
    int64_t padded = dilated + g.pad_low[d] + g.pad_high[d];
    int64_t window =
        (rhs.dim(dn->kernel_spatial[d]) - 1) * g.rhs_dilation[d] + 1;
    expected[dn->output_spatial[d]] =
        padded <= 0 || window > padded ? 0
                                       : (padded - window) / g.strides[d] + 1;
  }
  if (r.shape() != expected) {
    return evalError(strCat("result ", r.typeText(), " must have shape ",
                            indexText(expected)));
  }
  std::vector<int64_t> ls = stridesOf(lhs.shape()), ks = stridesOf(rhs.shape());
  std::vector<int64_t> window_shape;
  for (int64_t d : dn->kernel_spatial) window_shape.push_back(rhs.dim(d));
  int64_t window_size = 1;
  for (int64_t d : window_shape) window_size *= d;
  int64_t out_per_fgroup = kout / fgc, out_per_bgroup = kout / bgc;
  DotAccumulator acc(r.elementType());
  std::vector<int64_t> index(r.rank(), 0);
  for (int64_t i = 0; i < r.numElements(); ++i, nextIndex(index, r.shape())) {
    int64_t o = index[dn->output_feature];
    int64_t b = index[dn->output_batch] + (o / out_per_bgroup) * (batch / bgc);
    int64_t feature_base = (o / out_per_fgroup) * kin;
    acc.reset();
    std::vector<int64_t> w(spatial, 0);
    for (int64_t k = 0; k < window_size; ++k, nextIndex(w, window_shape)) {
      // The lhs position of kernel position w (in the dilated, padded lhs).
      int64_t lbase = b * ls[dn->input_batch];
      bool inside = true;
      for (size_t d = 0; d < spatial && inside; ++d) {
        int64_t wd = g.reversal[d] ? window_shape[d] - 1 - w[d] : w[d];
        int64_t p = index[dn->output_spatial[d]] * g.strides[d] +
                    wd * g.rhs_dilation[d] - g.pad_low[d];
        if (p < 0 || p % g.lhs_dilation[d] != 0) {
          inside = false;
          break;
        }
        p /= g.lhs_dilation[d];
        inside = p < lhs.dim(dn->input_spatial[d]);
        lbase += p * ls[dn->input_spatial[d]];
      }
      if (!inside) continue;  // padding: a zero term
      int64_t kbase = o * ks[dn->kernel_output_feature];
      for (size_t d = 0; d < spatial; ++d) {
        kbase += w[d] * ks[dn->kernel_spatial[d]];
      }
      for (int64_t c = 0; c < kin; ++c) {
        acc.add(lhs, lbase + (feature_base + c) * ls[dn->input_feature], rhs,
                kbase + c * ks[dn->kernel_input_feature]);
      }
    }
    acc.store(r, i);
  }
  return Results{std::move(r)};
}

}  // namespace

void addContractionKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<DotOp>(&dot);
  t.add<DotGeneralOp>(&dotGeneralKernel);
  t.add<ConvolutionOp>(&convolution);
}

}  // namespace shardkit::interp
