// Arithmetic on sizes that may not fit in int64: dimension sizes come from
// the input unchecked, so the product of a shape's sizes may overflow. Code
// that multiplies sizes uses these instead of `*`.
#ifndef SHARDKIT_SUPPORT_CHECKED_MATH_H_
#define SHARDKIT_SUPPORT_CHECKED_MATH_H_

#include <cstdint>
#include <limits>
#include <optional>

namespace shardkit {

// `a * b`, or false (leaving `out` unspecified) when it overflows int64.
inline bool checkedMul(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

// `a * b` for non-negative sizes, or INT64_MAX when it does not fit: a
// product too large to represent compares above every one that fits.
inline int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t out = 0;
  return checkedMul(a, b, out) ? out : std::numeric_limits<int64_t>::max();
}

// `a + b` for non-negative sizes, or INT64_MAX when it does not fit.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  return __builtin_add_overflow(a, b, &out)
             ? std::numeric_limits<int64_t>::max()
             : out;
}

// The product of `sizes`, or nullopt when it overflows int64.
template <typename Range>
std::optional<int64_t> checkedProduct(const Range& sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (!checkedMul(product, size, product)) return std::nullopt;
  }
  return product;
}

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_CHECKED_MATH_H_
