#include "shardkit/interp/element_type.h"

#include "shardkit/support/enum_table.h"

namespace shardkit::interp {
namespace {

struct TypeFacts {
  std::string_view name;
  int bits;
  ElementKind kind;
};

constexpr ElementKind kInt = ElementKind::kInteger;
constexpr ElementKind kFloatKind = ElementKind::kFloat;
constexpr ElementKind kComplexKind = ElementKind::kComplex;

constexpr EnumTable<ElementType, TypeFacts> kFacts = {{
    {ElementType::kI1, {"i1", 1, kInt}},
    {ElementType::kSI2, {"i2", 2, kInt}},
    {ElementType::kSI4, {"i4", 4, kInt}},
    {ElementType::kSI8, {"i8", 8, kInt}},
    {ElementType::kSI16, {"i16", 16, kInt}},
    {ElementType::kSI32, {"i32", 32, kInt}},
    {ElementType::kSI64, {"i64", 64, kInt}},
    {ElementType::kUI2, {"ui2", 2, kInt}},
    {ElementType::kUI4, {"ui4", 4, kInt}},
    {ElementType::kUI8, {"ui8", 8, kInt}},
    {ElementType::kUI16, {"ui16", 16, kInt}},
    {ElementType::kUI32, {"ui32", 32, kInt}},
    {ElementType::kUI64, {"ui64", 64, kInt}},
    {ElementType::kF16, {"f16", 16, kFloatKind}},
    {ElementType::kBF16, {"bf16", 16, kFloatKind}},
    {ElementType::kF32, {"f32", 32, kFloatKind}},
    {ElementType::kF64, {"f64", 64, kFloatKind}},
    {ElementType::kC64, {"complex<f32>", 64, kComplexKind}},
    {ElementType::kC128, {"complex<f64>", 128, kComplexKind}},
}};

}  // namespace

std::optional<ElementType> parseElementType(std::string_view text) {
  // `si32` is the signed spelling of `i32`.
  if (text.starts_with("si") && text.size() > 2 && text[2] >= '1' &&
      text[2] <= '9') {
    text.remove_prefix(1);
    if (text == "i1") return std::nullopt;
  }
  return kFacts.findIf([&](const TypeFacts& f) { return f.name == text; });
}

std::string_view toString(ElementType type) { return kFacts[type].name; }

ElementKind kindOf(ElementType type) { return kFacts[type].kind; }

int bitWidth(ElementType type) { return kFacts[type].bits; }

ElementType partType(ElementType type) {
  if (type == ElementType::kC64) return ElementType::kF32;
  if (type == ElementType::kC128) return ElementType::kF64;
  return type;
}

std::optional<ElementType> complexOf(ElementType type) {
  if (type == ElementType::kF32) return ElementType::kC64;
  if (type == ElementType::kF64) return ElementType::kC128;
  return std::nullopt;
}

}  // namespace shardkit::interp
