#include "src/interp/float_bits.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace shardkit::interp {

FloatFormat floatFormat(ElementType type) {
  switch (type) {
    case ElementType::kF16:
      return {11, 5, -14, 15};
    case ElementType::kBF16:
      return {8, 8, -126, 127};
    case ElementType::kF32:
      return {24, 8, -126, 127};
    default:
      return {53, 11, -1022, 1023};
  }
}

double roundToFormat(double value, const FloatFormat& f) {
  if (!std::isfinite(value) || value == 0) return value;
  int e = 0;
  std::frexp(value, &e);  // |value| = m * 2^e, 0.5 <= m < 1
  int exponent = std::max(e - 1, f.min_exponent);
  // The place value of the last significand bit at that exponent: scaling
  // by a power of two is exact, so nearbyint rounds once, to nearest even.
  int quantum = exponent - (f.precision - 1);
  double rounded =
      std::ldexp(std::nearbyint(std::ldexp(value, -quantum)), quantum);
  double largest =
      std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.max_exponent);
  if (std::fabs(rounded) > largest) {
    return std::copysign(std::numeric_limits<double>::infinity(), value);
  }
  return rounded;
}

uint64_t floatToBits(ElementType type, double value) {
  if (type == ElementType::kF64) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
  }
  if (type == ElementType::kF32) {
    float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
  }
  FloatFormat f = floatFormat(type);
  int mantissa_bits = f.precision - 1;
  int bias = f.max_exponent;
  uint64_t sign = std::signbit(value) ? 1 : 0;
  uint64_t max_exp = (uint64_t{1} << f.exponent_bits) - 1;
  uint64_t exp = 0, mantissa = 0;
  if (std::isnan(value)) {
    exp = max_exp;
    mantissa = uint64_t{1} << (mantissa_bits - 1);
  } else if (std::isinf(value)) {
    exp = max_exp;
  } else if (value != 0) {
    int e = 0;
    double m = std::frexp(std::fabs(value), &e);  // value = m * 2^e
    int exponent = e - 1;
    if (exponent < f.min_exponent) {  // subnormal
      mantissa = static_cast<uint64_t>(
          std::ldexp(std::fabs(value), mantissa_bits - f.min_exponent));
    } else {
      exp = static_cast<uint64_t>(static_cast<int64_t>(exponent) + bias);
      mantissa = static_cast<uint64_t>(std::ldexp(m * 2 - 1, mantissa_bits));
    }
  }
  return (sign << (f.exponent_bits + mantissa_bits)) | (exp << mantissa_bits) |
         mantissa;
}

double floatFromBits(ElementType type, uint64_t bits) {
  if (type == ElementType::kF64) {
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }
  if (type == ElementType::kF32) {
    uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, sizeof(f));
    return f;
  }
  FloatFormat f = floatFormat(type);
  int mantissa_bits = f.precision - 1;
  uint64_t max_exp = (uint64_t{1} << f.exponent_bits) - 1;
  uint64_t mantissa = bits & ((uint64_t{1} << mantissa_bits) - 1);
  uint64_t exp = (bits >> mantissa_bits) & max_exp;
  bool negative = (bits >> (mantissa_bits + f.exponent_bits)) & 1;
  double value;
  if (exp == max_exp) {
    value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
  } else if (exp == 0) {
    value = std::ldexp(static_cast<double>(mantissa),
                       f.min_exponent - mantissa_bits);
  } else {
    value = std::ldexp(
        static_cast<double>(mantissa | (uint64_t{1} << mantissa_bits)),
        static_cast<int>(exp) - f.max_exponent - mantissa_bits);
  }
  return negative ? -value : value;
}

}  // namespace shardkit::interp
