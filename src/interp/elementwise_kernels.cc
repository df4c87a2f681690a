// The elementwise ops of one, two and three operands: arithmetic, logic,
// bit operations and the math functions, by the StableHLO spec's semantics.
// Integers wrap to their width; floats compute in double and round to their
// type; an operation an element type does not have is an error.
#include <bit>
#include <cmath>
#include <complex>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/elementwise.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {
namespace {

using C = std::complex<double>;

bool isU(ElementType t) { return isUnsignedInteger(t); }
uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
int64_t s(uint64_t v) { return static_cast<int64_t>(v); }

// IEEE-754 maximum and minimum: NaN propagates, -0 < +0.
double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::nan("");
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::nan("");
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
// Complex numbers order lexicographically (real part first).
bool complexLess(C a, C b) {
  return a.real() == b.real() ? a.imag() < b.imag() : a.real() < b.real();
}

int64_t intDivide(ElementType t, int64_t a, int64_t b) {
  // XLA's results where the quotient is undefined: x / 0 is all ones and
  // the most negative value divided by -1 is itself.
  if (b == 0) return -1;
  if (isU(t)) return s(u(a) / u(b));
  if (b == -1) return s(0 - u(a));
  return a / b;
}
int64_t intRemainder(ElementType t, int64_t a, int64_t b) {
  // x % 0 is x; the most negative value % -1 is 0.
  if (b == 0) return a;
  if (isU(t)) return s(u(a) % u(b));
  if (b == -1) return 0;
  return a % b;
}
int64_t intPower(ElementType t, int64_t base, int64_t exponent) {
  if (!isU(t) && exponent < 0) {
    // Only 1 and -1 have integer powers of negative exponents.
    if (base != 1 && base != -1) return 0;
    exponent = -exponent;
  }
  uint64_t result = 1, b = u(base), e = u(exponent);
  while (e != 0) {
    if (e & 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return s(result);
}
int64_t shiftLeft(ElementType t, int64_t a, int64_t amount) {
  if (u(amount) >= static_cast<uint64_t>(bitWidth(t))) return 0;
  return s(u(a) << amount);
}
int64_t shiftRightLogical(ElementType t, int64_t a, int64_t amount) {
  int bits = bitWidth(t);
  if (u(amount) >= static_cast<uint64_t>(bits)) return 0;
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return s((u(a) & mask) >> amount);
}
int64_t shiftRightArithmetic(ElementType t, int64_t a, int64_t amount) {
  // `a` is stored sign-extended for signed types; an unsigned one is read
  // as signed at its width.
  int bits = bitWidth(t);
  int64_t v = isU(t) && bits < 64 ? wrapInt(signedOf(t), a) : a;
  if (u(amount) >= static_cast<uint64_t>(bits)) return v < 0 ? -1 : 0;
  return v >> amount;
}

int64_t intMax(ElementType t, int64_t a, int64_t b) {
  if (isU(t)) return u(a) > u(b) ? a : b;
  return a > b ? a : b;
}
int64_t intMin(ElementType t, int64_t a, int64_t b) {
  if (isU(t)) return u(a) < u(b) ? a : b;
  return a < b ? a : b;
}

const BinaryFns kAdd{[](ElementType t, int64_t a, int64_t b) {
                       return isBool(t) ? (a | b) : s(u(a) + u(b));
                     },
                     [](double a, double b) { return a + b; },
                     [](C a, C b) { return a + b; }};
const BinaryFns kSubtract{
    [](ElementType, int64_t a, int64_t b) { return s(u(a) - u(b)); },
    [](double a, double b) { return a - b; }, [](C a, C b) { return a - b; },
    /*bools=*/false};
const BinaryFns kMultiply{[](ElementType t, int64_t a, int64_t b) {
                            return isBool(t) ? (a & b) : s(u(a) * u(b));
                          },
                          [](double a, double b) { return a * b; },
                          [](C a, C b) { return a * b; }};
const BinaryFns kDivide{intDivide, [](double a, double b) { return a / b; },
                        [](C a, C b) { return a / b; }, false};
const BinaryFns kRemainder{intRemainder,
                           [](double a, double b) { return std::fmod(a, b); },
                           nullptr, false};
const BinaryFns kMaximum{[](ElementType t, int64_t a, int64_t b) {
                           return isBool(t) ? (a | b) : intMax(t, a, b);
                         },
                         maximum,
                         [](C a, C b) { return complexLess(a, b) ? b : a; }};
const BinaryFns kMinimum{[](ElementType t, int64_t a, int64_t b) {
                           return isBool(t) ? (a & b) : intMin(t, a, b);
                         },
                         minimum,
                         [](C a, C b) { return complexLess(b, a) ? b : a; }};
const BinaryFns kPower{intPower,
                       [](double a, double b) { return std::pow(a, b); },
                       [](C a, C b) { return std::pow(a, b); }, false};
const BinaryFns kAtan2{
    nullptr, [](double a, double b) { return std::atan2(a, b); },
    [](C y, C x) {
      const C i(0, 1);
      return -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
    },
    false};
const BinaryFns kAnd{[](ElementType, int64_t a, int64_t b) { return a & b; },
                     nullptr, nullptr};
const BinaryFns kOr{[](ElementType, int64_t a, int64_t b) { return a | b; },
                    nullptr, nullptr};
const BinaryFns kXor{[](ElementType, int64_t a, int64_t b) { return a ^ b; },
                     nullptr, nullptr};
const BinaryFns kShiftLeft{shiftLeft, nullptr, nullptr, false};
const BinaryFns kShiftRightLogical{shiftRightLogical, nullptr, nullptr, false};
const BinaryFns kShiftRightArithmetic{shiftRightArithmetic, nullptr, nullptr,
                                      false};

template <const BinaryFns& kFns>
absl::StatusOr<Results> binary(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(Tensor r, applyBinary(ctx, kFns));
  return Results{std::move(r)};
}

int64_t intSign(ElementType t, int64_t a) {
  if (isU(t)) return a != 0 ? 1 : 0;
  return a < 0 ? -1 : (a > 0 ? 1 : 0);
}
double floatSign(double a) {
  if (std::isnan(a) || a == 0) return a;
  return a < 0 ? -1.0 : 1.0;
}
C complexSign(C z) {
  if (std::isnan(z.real()) || std::isnan(z.imag())) {
    return C(std::nan(""), std::nan(""));
  }
  if (z == C(0, 0)) return C(0, 0);
  return z / std::abs(z);
}
double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
C complexCbrt(C z) {
  double theta = std::atan2(z.imag(), z.real()) / 3.0;
  return std::pow(std::norm(z), 1.0 / 6.0) *
         C(std::cos(theta), std::sin(theta));
}

const UnaryFns kNegate{[](ElementType, int64_t a) { return s(0 - u(a)); },
                       [](double a) { return -a; }, [](C a) { return -a; },
                       false};
const UnaryFns kNot{
    [](ElementType t, int64_t a) { return isBool(t) ? (a ? 0 : 1) : ~a; },
    nullptr, nullptr};
const UnaryFns kSign{intSign, floatSign, complexSign, false};
const UnaryFns kExp{nullptr, [](double a) { return std::exp(a); },
                    [](C a) { return std::exp(a); }};
const UnaryFns kExpm1{nullptr, [](double a) { return std::expm1(a); },
                      [](C a) { return std::exp(a) - C(1, 0); }};
const UnaryFns kLog{nullptr, [](double a) { return std::log(a); },
                    [](C a) { return std::log(a); }};
const UnaryFns kLog1p{nullptr, [](double a) { return std::log1p(a); },
                      [](C a) { return std::log(a + C(1, 0)); }};
const UnaryFns kLogistic{
    nullptr, logistic, [](C a) { return C(1, 0) / (C(1, 0) + std::exp(-a)); }};
const UnaryFns kSqrt{nullptr, [](double a) { return std::sqrt(a); },
                     [](C a) { return std::sqrt(a); }};
const UnaryFns kRsqrt{nullptr, [](double a) { return 1.0 / std::sqrt(a); },
                      [](C a) { return C(1, 0) / std::sqrt(a); }};
const UnaryFns kCbrt{nullptr, [](double a) { return std::cbrt(a); },
                     complexCbrt};
const UnaryFns kTanh{nullptr, [](double a) { return std::tanh(a); },
                     [](C a) { return std::tanh(a); }};
const UnaryFns kSine{nullptr, [](double a) { return std::sin(a); },
                     [](C a) { return std::sin(a); }};
const UnaryFns kCosine{nullptr, [](double a) { return std::cos(a); },
                       [](C a) { return std::cos(a); }};
const UnaryFns kTan{nullptr, [](double a) { return std::tan(a); },
                    [](C a) { return std::tan(a); }};
const UnaryFns kFloor{nullptr, [](double a) { return std::floor(a); }, nullptr};
const UnaryFns kCeil{nullptr, [](double a) { return std::ceil(a); }, nullptr};
const UnaryFns kRoundAfz{nullptr, [](double a) { return std::round(a); },
                         nullptr};
const UnaryFns kRoundEven{nullptr, [](double a) { return std::nearbyint(a); },
                          nullptr};
const UnaryFns kPopcnt{
    [](ElementType t, int64_t a) {
      int bits = bitWidth(t);
      uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      return static_cast<int64_t>(std::popcount(u(a) & mask));
    },
    nullptr, nullptr, false};
const UnaryFns kClz{
    [](ElementType t, int64_t a) {
      int bits = bitWidth(t);
      uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      return static_cast<int64_t>(std::countl_zero(u(a) & mask) - (64 - bits));
    },
    nullptr, nullptr, false};

template <const UnaryFns& kFns>
absl::StatusOr<Results> unary(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(Tensor r, applyUnary(ctx, kFns));
  return Results{std::move(r)};
}

// abs: integers wrap (|min| is min), floats drop the sign, complex numbers
// give their modulus (of the part type).
absl::StatusOr<Results> absKernel(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(x, r));
  for (int64_t i = 0; i < x.numElements(); ++i) {
    switch (x.kind()) {
      case ElementKind::kInteger:
        if (isBool(x.elementType())) return evalError("abs of booleans");
        r.setInt(i, isU(x.elementType())
                        ? x.intAt(i)
                        : (x.intAt(i) < 0 ? s(0 - u(x.intAt(i))) : x.intAt(i)));
        break;
      case ElementKind::kFloat:
        r.setFloat(i, std::fabs(x.floatAt(i)));
        break;
      case ElementKind::kComplex:
        if (r.kind() != ElementKind::kFloat) {
          return evalError("abs of a complex tensor is a float tensor");
        }
        r.setFloat(i, std::abs(x.complexAt(i)));
        break;
    }
  }
  return Results{std::move(r)};
}

// is_finite: a float tensor's finite elements.
absl::StatusOr<Results> isFiniteKernel(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  const Tensor& x = ctx.tensor(0);
  if (x.kind() != ElementKind::kFloat) return evalError("needs floats");
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(x, r));
  for (int64_t i = 0; i < x.numElements(); ++i) {
    r.setInt(i, std::isfinite(x.floatAt(i)) ? 1 : 0);
  }
  return Results{std::move(r)};
}

}  // namespace

absl::Status checkSameShape(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) {
    return evalError(strCat("shapes ", a.typeText(), " and ", b.typeText(),
                            " do not match"));
  }
  return absl::OkStatus();
}

ElementType signedOf(ElementType t) {
  switch (t) {
    case ElementType::kUI2:
      return ElementType::kSI2;
    case ElementType::kUI4:
      return ElementType::kSI4;
    case ElementType::kUI8:
      return ElementType::kSI8;
    case ElementType::kUI16:
      return ElementType::kSI16;
    case ElementType::kUI32:
      return ElementType::kSI32;
    case ElementType::kUI64:
      return ElementType::kSI64;
    default:
      return t;
  }
}

namespace {

// An error unless `fns` has a function of `a`'s element kind (and takes
// booleans if `a` holds them) and `r` has `a`'s element type.
template <typename Fns>
absl::Status checkDefinedOn(const Fns& fns, const Tensor& a, const Tensor& r) {
  bool defined = r.elementType() == a.elementType();
  switch (a.kind()) {
    case ElementKind::kInteger:
      defined = defined && fns.ints && (fns.bools || !isBool(a.elementType()));
      break;
    case ElementKind::kFloat:
      defined = defined && fns.floats;
      break;
    case ElementKind::kComplex:
      defined = defined && fns.complexes;
      break;
  }
  if (defined) return absl::OkStatus();
  return evalError(
      strCat("is not defined on ", a.typeText(), " -> ", r.typeText()));
}

}  // namespace

absl::StatusOr<Tensor> applyBinary(OpContext& ctx, const BinaryFns& fns) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  if (ctx.numOperands() != 2) return evalError("expected two operands");
  const Tensor& a = ctx.tensor(0);
  const Tensor& b = ctx.tensor(1);
  SK_RETURN_IF_ERROR(checkSameShape(a, b));
  if (a.elementType() != b.elementType()) {
    return evalError("operands must have the same element type");
  }
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(a, r));
  ElementType t = a.elementType();
  SK_RETURN_IF_ERROR(checkDefinedOn(fns, a, r));
  for (int64_t i = 0; i < a.numElements(); ++i) {
    switch (a.kind()) {
      case ElementKind::kInteger:
        r.setInt(i, fns.ints(t, a.intAt(i), b.intAt(i)));
        break;
      case ElementKind::kFloat:
        r.setFloat(i, fns.floats(a.floatAt(i), b.floatAt(i)));
        break;
      case ElementKind::kComplex:
        r.setComplex(i, fns.complexes(a.complexAt(i), b.complexAt(i)));
        break;
    }
  }
  return r;
}

absl::StatusOr<Tensor> applyUnary(OpContext& ctx, const UnaryFns& fns) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  if (ctx.numOperands() != 1) return evalError("expected one operand");
  const Tensor& a = ctx.tensor(0);
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  SK_RETURN_IF_ERROR(checkSameShape(a, r));
  ElementType t = a.elementType();
  SK_RETURN_IF_ERROR(checkDefinedOn(fns, a, r));
  for (int64_t i = 0; i < a.numElements(); ++i) {
    switch (a.kind()) {
      case ElementKind::kInteger:
        r.setInt(i, fns.ints(t, a.intAt(i)));
        break;
      case ElementKind::kFloat:
        r.setFloat(i, fns.floats(a.floatAt(i)));
        break;
      case ElementKind::kComplex:
        r.setComplex(i, fns.complexes(a.complexAt(i)));
        break;
    }
  }
  return r;
}

const BinaryFns* binaryFnsOf(OpName name) {
  using namespace stablehlo;  // NOLINT: the op handles
  if (AddOp::classof(name)) return &kAdd;
  if (MulOp::classof(name)) return &kMultiply;
  if (MaxOp::classof(name)) return &kMaximum;
  if (MinOp::classof(name)) return &kMinimum;
  if (AndOp::classof(name)) return &kAnd;
  if (OrOp::classof(name)) return &kOr;
  if (XorOp::classof(name)) return &kXor;
  if (SubtractOp::classof(name)) return &kSubtract;
  return nullptr;
}

void addElementwiseKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<AddOp>(&binary<kAdd>);
  t.add<SubtractOp>(&binary<kSubtract>);
  t.add<MulOp>(&binary<kMultiply>);
  t.add<DivOp>(&binary<kDivide>);
  t.add<RemOp>(&binary<kRemainder>);
  t.add<MaxOp>(&binary<kMaximum>);
  t.add<MinOp>(&binary<kMinimum>);
  t.add<PowOp>(&binary<kPower>);
  t.add<Atan2Op>(&binary<kAtan2>);
  t.add<AndOp>(&binary<kAnd>);
  t.add<OrOp>(&binary<kOr>);
  t.add<XorOp>(&binary<kXor>);
  t.add<ShiftLeftOp>(&binary<kShiftLeft>);
  t.add<ShiftRightLogicalOp>(&binary<kShiftRightLogical>);
  t.add<ShiftRightArithmeticOp>(&binary<kShiftRightArithmetic>);
  t.add<NegOp>(&unary<kNegate>);
  t.add<NotOp>(&unary<kNot>);
  t.add<SignOp>(&unary<kSign>);
  t.add<ExpOp>(&unary<kExp>);
  t.add<Expm1Op>(&unary<kExpm1>);
  t.add<LogOp>(&unary<kLog>);
  t.add<Log1pOp>(&unary<kLog1p>);
  t.add<LogisticOp>(&unary<kLogistic>);
  t.add<SqrtOp>(&unary<kSqrt>);
  t.add<RsqrtOp>(&unary<kRsqrt>);
  t.add<CbrtOp>(&unary<kCbrt>);
  t.add<TanhOp>(&unary<kTanh>);
  t.add<SineOp>(&unary<kSine>);
  t.add<CosineOp>(&unary<kCosine>);
  t.add<TanOp>(&unary<kTan>);
  t.add<FloorOp>(&unary<kFloor>);
  t.add<CeilOp>(&unary<kCeil>);
  t.add<RoundNearestAfzOp>(&unary<kRoundAfz>);
  t.add<RoundNearestEvenOp>(&unary<kRoundEven>);
  t.add<PopcntOp>(&unary<kPopcnt>);
  t.add<ClzOp>(&unary<kClz>);
  t.add<AbsOp>(&absKernel);
  t.add<IsFiniteOp>(&isFiniteKernel);
}

}  // namespace shardkit::interp
