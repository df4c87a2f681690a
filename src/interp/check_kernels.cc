// The checks of StableHLO's test dialect and the interpreter's print and
// probe ops. A failed check is reported (Evaluator::reportFailedCheck) with
// both values, and the run goes on.
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <mutex>

#include "shardkit/interp/ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"
#include "src/interp/float_bits.h"

namespace shardkit::interp {
namespace {

// The two tensors a check compares: its operands, or its operand and its
// `value` attribute.
absl::StatusOr<std::pair<Tensor, Tensor>> comparedTensors(OpContext& ctx,
                                                          bool constant) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  Tensor actual = ctx.tensor(0);
  Tensor expected;
  if (constant) {
    SK_ASSIGN_OR_RETURN(expected, ctx.elementsAttr("value"));
  } else {
    if (ctx.numOperands() != 2) return evalError("expected two operands");
    expected = ctx.tensor(1);
  }
  if (actual.elementType() != expected.elementType() ||
      actual.shape() != expected.shape()) {
    return evalError(strCat("compares values of different types: ",
                            actual.typeText(), " and ", expected.typeText()));
  }
  return std::make_pair(std::move(actual), std::move(expected));
}

std::vector<int64_t> unflatten(int64_t i, absl::Span<const int64_t> shape) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? i % shape[d] : 0;
    if (shape[d]) i /= shape[d];
  }
  return index;
}

void fail(OpContext& ctx, const std::string& message, const Tensor& actual,
          const Tensor& expected) {
  ctx.eval().reportFailedCheck(ctx.op(),
                               strCat("'", ctx.op().name(), "' op ", message),
                               {strCat("actual: ", tensorText(actual)),
                                strCat("expected: ", tensorText(expected))});
}

// Reports the first element `i` for which `same(i)` fails, with the
// reference's wording after `what` ("Element values don't match").
template <typename Same>
void reportFirstMismatch(OpContext& ctx, std::string_view what,
                         const Tensor& actual, const Tensor& expected,
                         Same same) {
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    if (same(i)) continue;
    fail(ctx,
         strCat(what, ": ", elementText(actual, i), " (actual) vs ",
                elementText(expected, i), " (expected) at index ",
                indexText(unflatten(i, actual.shape()))),
         actual, expected);
    return;
  }
}

template <bool kConstant>
absl::StatusOr<Results> expectEq(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(auto pair, comparedTensors(ctx, kConstant));
  // Named references, not a structured binding: lambdas capture them.
  const Tensor& actual = pair.first;
  const Tensor& expected = pair.second;
  reportFirstMismatch(
      ctx, "Element values don't match", actual, expected,
      [&](int64_t i) { return actual.elementEquals(i, expected, i); });
  return Results{};
}

// The reference interpreter's closeness: equal values, two NaNs, or two
// finite values (zeros included) at most `tolerance` apart.
bool almostEqual(double f, double g, double tolerance) {
  if (f == g) return true;
  if (std::isnan(f) || std::isnan(g)) return std::isnan(f) && std::isnan(g);
  if (!std::isfinite(f) || !std::isfinite(g)) return false;
  return std::fabs(f - g) <= tolerance;
}

template <bool kConstant>
absl::StatusOr<Results> expectAlmostEq(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(auto pair, comparedTensors(ctx, kConstant));
  const Tensor& actual = pair.first;
  const Tensor& expected = pair.second;
  if (actual.kind() == ElementKind::kInteger) {
    return evalError("compares floats or complex numbers only");
  }
  double tolerance = 1e-4;
  if (const FloatValue* f = ctx.op().attr("tolerance").asFloat()) {
    tolerance = f->value;
  }
  reportFirstMismatch(ctx,
                      strCat("Element values don't match with tolerance ",
                             formatFloat(tolerance, "f64")),
                      actual, expected, [&](int64_t i) {
                        std::complex<double> a = actual.valueAt(i),
                                             e = expected.valueAt(i);
                        return almostEqual(a.real(), e.real(), tolerance) &&
                               almostEqual(a.imag(), e.imag(), tolerance);
                      });
  return Results{};
}

// The number of values of `type` between `f` and `g` (0 for equal bits or
// two NaNs; the maximum for a non-finite value against another).
uint64_t ulpDifference(ElementType type, double f, double g) {
  uint64_t bf = floatToBits(type, f), bg = floatToBits(type, g);
  if (bf == bg) return 0;
  if (std::isnan(f) && std::isnan(g)) return 0;
  if (!std::isfinite(f) || !std::isfinite(g)) {
    return std::numeric_limits<uint64_t>::max();
  }
  uint64_t a = floatToBits(type, std::fabs(f));
  uint64_t b = floatToBits(type, std::fabs(g));
  if (std::signbit(f) != std::signbit(g)) return a + b;
  return a > b ? a - b : b - a;
}

absl::StatusOr<Results> expectClose(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(auto pair, comparedTensors(ctx, false));
  const auto& [actual, expected] = pair;
  if (actual.kind() == ElementKind::kInteger) {
    return evalError("compares floats or complex numbers only");
  }
  SK_ASSIGN_OR_RETURN(int64_t max_ulp, ctx.intAttrOr("max_ulp_difference", 1));
  SK_ASSIGN_OR_RETURN(int64_t min_ulp, ctx.intAttrOr("min_ulp_difference", 0));
  ElementType part = partType(actual.elementType());
  std::string mismatches;
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    std::complex<double> a = actual.valueAt(i), e = expected.valueAt(i);
    uint64_t diff = ulpDifference(part, a.real(), e.real());
    if (actual.kind() == ElementKind::kComplex) {
      diff = std::max(diff, ulpDifference(part, a.imag(), e.imag()));
    }
    if (diff > static_cast<uint64_t>(max_ulp) ||
        diff < static_cast<uint64_t>(min_ulp)) {
      strAppend(mismatches, mismatches.empty() ? "" : "; ",
                "index=", indexText(unflatten(i, actual.shape())),
                ", actual=", elementText(actual, i),
                ", expected=", elementText(expected, i),
                ", ULP difference=", diff);
    }
  }
  if (!mismatches.empty()) {
    fail(ctx,
         strCat("Elements values don't match with respect to maximal ULP "
                "difference=",
                max_ulp, " limit: ", mismatches),
         actual, expected);
  }
  return Results{};
}

absl::StatusOr<Results> expectSerializedEq(OpContext&) {
  return evalError(
      "needs the serialized tensors of a probed run, which "
      "shardkit's interpreter does not write");
}

absl::StatusOr<Results> print(OpContext& ctx) {
  static std::mutex* const mutex = new std::mutex;
  std::string text = ctx.operand(0).isTensor()
                         ? tensorText(ctx.tensor(0), kMaxTensorElements)
                         : ctx.operand(0).typeText();
  std::lock_guard<std::mutex> lock(*mutex);
  std::cout << text << "\n";
  return Results{};
}

absl::StatusOr<Results> probe(OpContext& ctx) { return ctx.operands(); }

}  // namespace

void addCheckKernels(KernelTable& t) {
  t.add<check::ExpectEqOp>(&expectEq<false>);
  t.add<check::ExpectEqConstOp>(&expectEq<true>);
  t.add<check::ExpectAlmostEqOp>(&expectAlmostEq<false>);
  t.add<check::ExpectAlmostEqConstOp>(&expectAlmostEq<true>);
  t.add<check::ExpectCloseOp>(&expectClose);
  t.add<check::ExpectSerializedEqOp>(&expectSerializedEq);
  t.add<interpreter::PrintOp>(&print);
  t.add<interpreter::ProbeOp>(&probe);
}

}  // namespace shardkit::interp
