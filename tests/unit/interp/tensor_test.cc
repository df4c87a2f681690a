// Tensor storage: integers wrap to their width, floats round to their type,
// literals read every spelling the reader keeps, and print back.
#include "shardkit/interp/tensor.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "shardkit/interp/literal.h"
#include "shardkit/ir/type.h"

namespace shardkit::interp {
namespace {

TEST_CASE("integers wrap to their type's width and signedness") {
  CHECK(wrapInt(ElementType::kSI8, 200) == -56);
  CHECK(wrapInt(ElementType::kUI8, -1) == 255);
  CHECK(wrapInt(ElementType::kSI16, 40000) == 40000 - 65536);
  CHECK(wrapInt(ElementType::kUI32, int64_t{1} << 32) == 0);
  CHECK(wrapInt(ElementType::kI1, 2) == 1);
  CHECK(wrapInt(ElementType::kSI64, std::numeric_limits<int64_t>::min()) ==
        std::numeric_limits<int64_t>::min());
}

TEST_CASE("floats round to nearest even in their type") {
  // 1 + 2^-11 is halfway between two f16 values: ties go to the even one.
  CHECK(roundFloat(ElementType::kF16, 1.0 + std::ldexp(1.0, -11)) == 1.0);
  CHECK(roundFloat(ElementType::kF16, 1.0 + 3 * std::ldexp(1.0, -11)) ==
        1.0 + std::ldexp(1.0, -9));
  CHECK(std::isinf(roundFloat(ElementType::kF16, 65520.0)));
  CHECK(roundFloat(ElementType::kF16, 65504.0) == 65504.0);
  // bf16 keeps 8 significand bits.
  CHECK(roundFloat(ElementType::kBF16, 1.00390625) == 1.0);
  CHECK(roundFloat(ElementType::kF32, 0.1) == static_cast<float>(0.1));
  // f16 subnormals: the least one is 2^-24.
  CHECK(roundFloat(ElementType::kF16, std::ldexp(1.0, -25)) == 0.0);
  CHECK(roundFloat(ElementType::kF16, std::ldexp(1.5, -24)) ==
        std::ldexp(1.0, -23));
}

TEST_CASE("element types by their MLIR spelling") {
  CHECK(parseElementType("i32") == ElementType::kSI32);
  CHECK(parseElementType("si32") == ElementType::kSI32);
  CHECK(parseElementType("ui64") == ElementType::kUI64);
  CHECK(parseElementType("complex<f64>") == ElementType::kC128);
  CHECK(parseElementType("bf16") == ElementType::kBF16);
  CHECK_FALSE(parseElementType("f8E4M3FN").has_value());
  CHECK_FALSE(parseElementType("si1").has_value());
  CHECK(toString(ElementType::kSI8) == "i8");
}

TEST_CASE("dense literals") {
  TypeContext types;
  Type i32x4 = types.rankedTensor({2, 2}, "i32");
  absl::StatusOr<Tensor> t =
      tensorFromLiteral("dense<[[1, -2], [3, 4]]>", i32x4);
  REQUIRE(t.ok());
  CHECK(t->intAt(1) == -2);
  CHECK(tensorText(*t) == "dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>");

  absl::StatusOr<Tensor> splat = tensorFromLiteral("dense<7>", i32x4);
  REQUIRE(splat.ok());
  CHECK(splat->intAt(3) == 7);

  Type f32x2 = types.rankedTensor({2}, "f32");
  absl::StatusOr<Tensor> bits =
      tensorFromLiteral("dense<[0x7FC00000, 1.5]>", f32x2);
  REQUIRE(bits.ok());
  CHECK(std::isnan(bits->floatAt(0)));
  CHECK(bits->floatAt(1) == 1.5);
  CHECK(elementText(*bits, 0) == "0x7FC00000");

  // The elements' bytes, little-endian: 1 and 2 as i16.
  Type i16x2 = types.rankedTensor({2}, "i16");
  absl::StatusOr<Tensor> hex =
      tensorFromLiteral("dense<\"0x01000200\">", i16x2);
  REQUIRE(hex.ok());
  CHECK(hex->intAt(1) == 2);

  Type c = types.rankedTensor({1}, "complex<f32>");
  absl::StatusOr<Tensor> z = tensorFromLiteral("dense<[(1.0,-2.5)]>", c);
  REQUIRE(z.ok());
  CHECK(z->complexAt(0) == std::complex<double>(1.0, -2.5));

  Type b = types.rankedTensor({2}, "i1");
  absl::StatusOr<Tensor> bools = tensorFromLiteral("dense<[true, false]>", b);
  REQUIRE(bools.ok());
  CHECK(bools->intAt(0) == 1);

  // A splat of a tensor without elements is read (and checked) too.
  Type empty = types.rankedTensor({2, 0}, "i4");
  absl::StatusOr<Tensor> none = tensorFromLiteral("dense<2>", empty);
  REQUIRE(none.ok());
  CHECK(none->numElements() == 0);
  CHECK_FALSE(tensorFromLiteral("dense<16>", empty).ok());

  Type u8 = types.rankedTensor({}, "ui8");
  CHECK_FALSE(tensorFromLiteral("dense<256>", u8).ok());
  CHECK_FALSE(tensorFromLiteral("dense<-1>", u8).ok());
  CHECK(tensorFromLiteral("dense<255>", u8).ok());
  CHECK_FALSE(tensorFromLiteral("dense<[1, 2, 3]>", i32x4).ok());
  CHECK_FALSE(tensorFromLiteral("dense<1.5>", i32x4).ok());
}

TEST_CASE("tensor types the interpreter cannot hold are errors") {
  TypeContext types;
  CHECK_FALSE(tensorTypeOf(types.rankedTensor({1 << 20, 1 << 20}, "f32")).ok());
  CHECK_FALSE(tensorTypeOf(types.rankedTensor({-1}, "f32")).ok());
  CHECK_FALSE(tensorTypeOf(types.rankedTensor({2}, "f8E5M2")).ok());
  CHECK(tensorTypeOf(types.rankedTensor({2, 3}, "bf16")).ok());
}

}  // namespace
}  // namespace shardkit::interp
