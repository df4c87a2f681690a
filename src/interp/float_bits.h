// Internal to the interp layer: the bit patterns of the float types (for
// bitcast_convert, hexadecimal literals and the text of NaNs and
// infinities) and rounding to the narrow float types.
#ifndef SHARDKIT_SRC_INTERP_FLOAT_BITS_H_
#define SHARDKIT_SRC_INTERP_FLOAT_BITS_H_

#include <cstdint>

#include "shardkit/interp/element_type.h"

namespace shardkit::interp {

// The IEEE binary format of a float type: precision (significand bits with
// the implicit one), exponent bits, the exponent of the least normal
// number, of the largest one.
struct FloatFormat {
  int precision;
  int exponent_bits;
  int min_exponent;
  int max_exponent;
};
FloatFormat floatFormat(ElementType type);

// `value` rounded to `format` (to nearest even; infinities past the largest
// finite number, subnormals below the least normal one). NaN stays NaN.
double roundToFormat(double value, const FloatFormat& format);

// The bits of `value` (a value of the float type `type`, exactly), in the
// low bitWidth(type) bits. A NaN becomes the type's quiet NaN with its sign.
uint64_t floatToBits(ElementType type, double value);
// The value whose bits (the low bitWidth(type) bits of `bits`) are given.
double floatFromBits(ElementType type, uint64_t bits);

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_FLOAT_BITS_H_
