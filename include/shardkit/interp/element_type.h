// The element types the interpreter computes with (docs/interp.md): the
// StableHLO booleans, signed and unsigned integers of 2 to 64 bits, the IEEE
// floats f16, bf16, f32, f64 and the complex types over f32 and f64.
#ifndef SHARDKIT_INTERP_ELEMENT_TYPE_H_
#define SHARDKIT_INTERP_ELEMENT_TYPE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::interp {

enum class ElementType : uint8_t {
  kI1,
  kSI2,
  kSI4,
  kSI8,
  kSI16,
  kSI32,
  kSI64,
  kUI2,
  kUI4,
  kUI8,
  kUI16,
  kUI32,
  kUI64,
  kF16,
  kBF16,
  kF32,
  kF64,
  kC64,           // complex<f32>
  kC128,          // complex<f64>
  kLast = kC128,  // for enum tables (support/enum_table.h)
};

// How an element type stores its elements: integers (and booleans) as
// int64_t, floats as double, complex numbers as std::complex<double>.
enum class ElementKind : uint8_t { kInteger, kFloat, kComplex };

// The element type written `text` in MLIR (`i32` and `si32` are both signed,
// `ui8`, `f32`, `complex<f64>`); nullopt for any other type.
std::optional<ElementType> parseElementType(std::string_view text);
// MLIR's spelling: `i1`, `i32` (signless, as StableHLO writes its signed
// integers), `ui8`, `bf16`, `complex<f32>`.
std::string_view toString(ElementType type);

ElementKind kindOf(ElementType type);
inline bool isBool(ElementType t) { return t == ElementType::kI1; }
// Integers, booleans excluded.
inline bool isInteger(ElementType t) {
  return t >= ElementType::kSI2 && t <= ElementType::kUI64;
}
inline bool isSignedInteger(ElementType t) {
  return t >= ElementType::kSI2 && t <= ElementType::kSI64;
}
inline bool isUnsignedInteger(ElementType t) {
  return t >= ElementType::kUI2 && t <= ElementType::kUI64;
}
inline bool isFloat(ElementType t) {
  return t >= ElementType::kF16 && t <= ElementType::kF64;
}
inline bool isComplex(ElementType t) {
  return t == ElementType::kC64 || t == ElementType::kC128;
}
// The bits of one element (a complex number's two parts together).
int bitWidth(ElementType type);
// The float type of a complex type's parts (f32 or f64); `type` itself for
// any other.
ElementType partType(ElementType type);
// The complex type whose parts are `type` (f32 or f64), or nullopt.
std::optional<ElementType> complexOf(ElementType type);

}  // namespace shardkit::interp

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERP_ELEMENT_TYPE_H_
