// Comparison, selection and conversion between element types: compare,
// select, clamp, convert, bitcast_convert, complex, real, imag and
// reduce_precision.
#include <cmath>
#include <cstring>
#include <limits>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/elementwise.h"
#include "src/interp/evaluator.h"
#include "src/interp/float_bits.h"

namespace shardkit::interp {
namespace {

// The float's position in IEEE's total order (-NaN < -inf < ... < -0 < +0 <
// ... < inf < NaN) as a signed integer.
int64_t totalOrderKey(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits < 0 ? std::numeric_limits<int64_t>::min() - bits - 1 : bits;
}

// -1, 0 or 1 for a < b, a == b, a > b; 2 when unordered (a NaN).
int compareElements(const Tensor& a, const Tensor& b, int64_t i,
                    bool total_order) {
  switch (a.kind()) {
    case ElementKind::kInteger: {
      if (isUnsignedInteger(a.elementType()) || isBool(a.elementType())) {
        uint64_t x = static_cast<uint64_t>(a.intAt(i));
        uint64_t y = static_cast<uint64_t>(b.intAt(i));
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      int64_t x = a.intAt(i), y = b.intAt(i);
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case ElementKind::kFloat: {
      double x = a.floatAt(i), y = b.floatAt(i);
      if (total_order) {
        int64_t kx = totalOrderKey(x), ky = totalOrderKey(y);
        return kx < ky ? -1 : (kx > ky ? 1 : 0);
      }
      if (std::isnan(x) || std::isnan(y)) return 2;
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case ElementKind::kComplex: {
      std::complex<double> x = a.complexAt(i), y = b.complexAt(i);
      if (std::isnan(x.real()) || std::isnan(x.imag()) ||
          std::isnan(y.real()) || std::isnan(y.imag())) {
        return 2;
      }
      if (x.real() != y.real()) return x.real() < y.real() ? -1 : 1;
      if (x.imag() != y.imag()) return x.imag() < y.imag() ? -1 : 1;
      return 0;
    }
  }
  return 2;
}

absl::StatusOr<Results> compare(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& a = ctx.tensor(0);
  const Tensor& b = ctx.tensor(1);
  SK_RETURN_IF_ERROR(checkSameShape(a, b));
  if (a.elementType() != b.elementType()) {
    return evalError("operands must have the same element type");
  }
  std::string_view direction = ctx.enumAttr("comparison_direction");
  bool total_order = ctx.enumAttr("compare_type") == "TOTALORDER";
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(a, r));
  if (!isBool(r.elementType())) return evalError("result must be of i1");
  for (int64_t i = 0; i < a.numElements(); ++i) {
    int c = compareElements(a, b, i, total_order);
    bool v;
    if (direction == "EQ") {
      v = c == 0;
    } else if (direction == "NE") {
      v = c != 0;
    } else if (direction == "LT") {
      v = c == -1;
    } else if (direction == "LE") {
      v = c == -1 || c == 0;
    } else if (direction == "GT") {
      v = c == 1;
    } else if (direction == "GE") {
      v = c == 1 || c == 0;
    } else {
      return evalError(
          "requires a comparison_direction of EQ, NE, LT, LE, "
          "GT or GE");
    }
    r.setInt(i, v ? 1 : 0);
  }
  return Results{std::move(r)};
}

// A rank-0 operand stands for every element (select's predicate, clamp's
// bounds).
int64_t at(const Tensor& t, int64_t i) { return t.rank() == 0 ? 0 : i; }

absl::Status checkScalarOrShape(const Tensor& t, const Tensor& like) {
  if (t.rank() != 0) return checkSameShape(t, like);
  return absl::OkStatus();
}

absl::StatusOr<Results> select(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& pred = ctx.tensor(0);
  const Tensor& on_true = ctx.tensor(1);
  const Tensor& on_false = ctx.tensor(2);
  if (!isBool(pred.elementType())) return evalError("predicate must be i1");
  SK_RETURN_IF_ERROR(checkSameShape(on_true, on_false));
  SK_RETURN_IF_ERROR(checkScalarOrShape(pred, on_true));
  if (on_true.elementType() != on_false.elementType()) {
    return evalError("on_true and on_false must have one element type");
  }
  Tensor r = on_false;
  for (int64_t i = 0; i < r.numElements(); ++i) {
    if (pred.intAt(at(pred, i))) r.copyElement(i, on_true, i);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> clamp(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& lo = ctx.tensor(0);
  const Tensor& x = ctx.tensor(1);
  const Tensor& hi = ctx.tensor(2);
  SK_RETURN_IF_ERROR(checkScalarOrShape(lo, x));
  SK_RETURN_IF_ERROR(checkScalarOrShape(hi, x));
  if (lo.elementType() != x.elementType() ||
      hi.elementType() != x.elementType()) {
    return evalError("operands must have one element type");
  }
  if (x.kind() == ElementKind::kComplex) return evalError("clamp of complex");
  Tensor r = x;
  for (int64_t i = 0; i < r.numElements(); ++i) {
    if (x.kind() == ElementKind::kFloat) {
      double v = x.floatAt(i), l = lo.floatAt(at(lo, i)),
             h = hi.floatAt(at(hi, i));
      if (std::isnan(v) || std::isnan(l) || std::isnan(h)) {
        r.setFloat(i, std::nan(""));
      } else {
        r.setFloat(i, std::min(std::max(v, l), h));
      }
      continue;
    }
    int64_t v = x.intAt(i), l = lo.intAt(at(lo, i)), h = hi.intAt(at(hi, i));
    if (isUnsignedInteger(x.elementType())) {
      uint64_t uv = v, ul = l, uh = h;
      r.setInt(i, static_cast<int64_t>(std::min(std::max(uv, ul), uh)));
    } else {
      r.setInt(i, std::min(std::max(v, l), h));
    }
  }
  return Results{std::move(r)};
}

// A float truncated toward zero into an integer type, saturating at its
// bounds (NaN is 0), as LLVM's APFloat converts.
int64_t floatToInt(ElementType type, double v) {
  if (std::isnan(v)) return 0;
  double t = std::trunc(v);
  int bits = bitWidth(type);
  if (isUnsignedInteger(type)) {
    if (t <= 0) return 0;
    double limit = std::ldexp(1.0, bits);
    if (t >= limit) return bits >= 64 ? -1 : (int64_t{1} << bits) - 1;
    return static_cast<int64_t>(static_cast<uint64_t>(t));
  }
  double limit = std::ldexp(1.0, bits - 1);
  if (t >= limit)
    return (bits >= 64 ? std::numeric_limits<int64_t>::max()
                       : (int64_t{1} << (bits - 1)) - 1);
  if (t < -limit)
    return -(bits >= 64 ? std::numeric_limits<int64_t>::max()
                        : (int64_t{1} << (bits - 1)) - 1) -
           1;
  return static_cast<int64_t>(t);
}

// An integer element (by its type's signedness) as a float of `type`,
// rounded once.
double intToFloat(ElementType from, int64_t v, ElementType to) {
  bool is_unsigned = isUnsignedInteger(from) || isBool(from);
  if (to == ElementType::kF32) {
    return is_unsigned ? static_cast<float>(static_cast<uint64_t>(v))
                       : static_cast<float>(v);
  }
  double d = is_unsigned ? static_cast<double>(static_cast<uint64_t>(v))
                         : static_cast<double>(v);
  return roundFloat(to, d);
}

absl::StatusOr<Results> convert(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(x, r));
  ElementType from = x.elementType(), to = r.elementType();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    switch (r.kind()) {
      case ElementKind::kInteger:
        if (x.kind() == ElementKind::kInteger) {
          r.setInt(i, isBool(to) ? (x.intAt(i) != 0) : x.intAt(i));
        } else {
          // Complex numbers convert by their real part.
          double v = x.valueAt(i).real();
          r.setInt(i, isBool(to) ? (v != 0) : floatToInt(to, v));
        }
        break;
      case ElementKind::kFloat:
        if (x.kind() == ElementKind::kInteger) {
          r.setFloat(i, intToFloat(from, x.intAt(i), to));
        } else {
          r.setFloat(i, x.valueAt(i).real());
        }
        break;
      case ElementKind::kComplex:
        if (x.kind() == ElementKind::kInteger) {
          r.setComplex(i, intToFloat(from, x.intAt(i), partType(to)));
        } else {
          r.setComplex(i, x.valueAt(i));
        }
        break;
    }
  }
  return Results{std::move(r)};
}

// The bits of element `i` (integers and floats).
uint64_t bitsOf(const Tensor& t, int64_t i) {
  if (t.kind() == ElementKind::kFloat) {
    return floatToBits(t.elementType(), t.floatAt(i));
  }
  int bits = bitWidth(t.elementType());
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(t.intAt(i)) & mask;
}
// Element `i` of the bits' low bitWidth bits.
void setBits(Tensor& t, int64_t i, uint64_t bits) {
  int width = bitWidth(t.elementType());
  if (width < 64) bits &= (uint64_t{1} << width) - 1;
  if (t.kind() == ElementKind::kFloat) {
    t.setFloat(i, floatFromBits(t.elementType(), bits));
  } else {
    t.setInt(i, static_cast<int64_t>(bits));
  }
}

// bitcast_convert: the same bits under another element type; between widths
// the wider element's bits are the narrower ones' along an extra last
// dimension, the first of them the lowest bits.
absl::StatusOr<Results> bitcastConvert(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  if (x.kind() == ElementKind::kComplex || r.kind() == ElementKind::kComplex) {
    return evalError(strCat("bitcast from ", x.typeText(), " to ", r.typeText(),
                            " is not supported"));
  }
  int in_bits = bitWidth(x.elementType()), out_bits = bitWidth(r.elementType());
  std::vector<int64_t> expected = x.shape();
  if (in_bits > out_bits) {
    expected.push_back(in_bits / out_bits);
  } else if (in_bits < out_bits) {
    if (expected.empty() || expected.back() != out_bits / in_bits) {
      return evalError("operand's last dimension must be the width ratio");
    }
    expected.pop_back();
  }
  if (expected != r.shape()) {
    return evalError(strCat("result of bitcast from ", x.typeText(),
                            " must be ", r.typeText()));
  }
  if (in_bits >= out_bits) {
    int64_t ratio = in_bits / out_bits;
    for (int64_t i = 0; i < x.numElements(); ++i) {
      uint64_t bits = bitsOf(x, i);
      for (int64_t k = 0; k < ratio; ++k) {
        uint64_t part = out_bits >= 64 ? bits : bits >> (k * out_bits);
        setBits(r, i * ratio + k, part);
      }
    }
  } else {
    int64_t ratio = out_bits / in_bits;
    for (int64_t i = 0; i < r.numElements(); ++i) {
      uint64_t bits = 0;
      for (int64_t k = 0; k < ratio; ++k) {
        bits |= bitsOf(x, i * ratio + k) << (k * in_bits);
      }
      setBits(r, i, bits);
    }
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> complexKernel(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& re = ctx.tensor(0);
  const Tensor& im = ctx.tensor(1);
  SK_RETURN_IF_ERROR(checkSameShape(re, im));
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(re, r));
  if (re.kind() != ElementKind::kFloat ||
      re.elementType() != im.elementType() ||
      complexOf(re.elementType()) != r.elementType()) {
    return evalError("takes two f32 or f64 tensors to a complex one");
  }
  for (int64_t i = 0; i < r.numElements(); ++i) {
    r.setComplex(i, {re.floatAt(i), im.floatAt(i)});
  }
  return Results{std::move(r)};
}

template <bool kImag>
absl::StatusOr<Results> part(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(x, r));
  if (x.kind() == ElementKind::kInteger ||
      r.elementType() != partType(x.elementType())) {
    return evalError("takes a float or complex tensor to its part type");
  }
  for (int64_t i = 0; i < r.numElements(); ++i) {
    std::complex<double> v = x.valueAt(i);
    r.setFloat(i, kImag ? v.imag() : v.real());
  }
  return Results{std::move(r)};
}

// reduce_precision: each float rounded (to nearest even) to
// `mantissa_bits` explicit significand bits and to the exponent range of
// `exponent_bits`, kept in its own type.
absl::StatusOr<Results> reducePrecision(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  if (x.kind() != ElementKind::kFloat) return evalError("needs floats");
  SK_ASSIGN_OR_RETURN(int64_t exponent_bits, ctx.intAttr("exponent_bits"));
  SK_ASSIGN_OR_RETURN(int64_t mantissa_bits, ctx.intAttr("mantissa_bits"));
  FloatFormat f = floatFormat(x.elementType());
  if (exponent_bits < 1 || mantissa_bits < 0) {
    return evalError("needs exponent_bits >= 1 and mantissa_bits >= 0");
  }
  FloatFormat reduced = f;
  if (mantissa_bits < f.precision - 1) {
    reduced.precision = static_cast<int>(mantissa_bits) + 1;
  }
  if (exponent_bits < f.exponent_bits) {
    int bias = (1 << (exponent_bits - 1)) - 1;
    reduced.max_exponent = bias;
    reduced.min_exponent = 1 - bias;
  }
  Tensor r = x;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = x.floatAt(i);
    if (std::isnan(v)) {
      r.setFloat(
          i, mantissa_bits > 0
                 ? v
                 : std::copysign(std::numeric_limits<double>::infinity(), v));
      continue;
    }
    double rounded = v;
    if (reduced.precision < f.precision) {
      FloatFormat wide = reduced;
      wide.min_exponent = f.min_exponent;
      wide.max_exponent = f.max_exponent;
      rounded = roundToFormat(v, wide);
    }
    if (exponent_bits < f.exponent_bits && std::isfinite(rounded) &&
        rounded != 0) {
      int e = 0;
      std::frexp(rounded, &e);
      if (e - 1 > reduced.max_exponent) {
        rounded = std::copysign(std::numeric_limits<double>::infinity(), v);
      } else if (e - 1 < reduced.min_exponent) {
        rounded = std::copysign(0.0, v);  // no subnormals in the reduced type
      }
    }
    r.setFloat(i, rounded);
  }
  return Results{std::move(r)};
}

}  // namespace

void addConvertKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<CompareOp>(&compare);
  t.add<SelectOp>(&select);
  t.add<ClampOp>(&clamp);
  t.add<ConvertOp>(&convert);
  t.add<BitcastConvertOp>(&bitcastConvert);
  t.add<ComplexOp>(&complexKernel);
  t.add<RealOp>(&part<false>);
  t.add<ImagOp>(&part<true>);
  t.add<ReducePrecisionOp>(&reducePrecision);
}

}  // namespace shardkit::interp
