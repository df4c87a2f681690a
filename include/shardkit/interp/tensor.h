// Tensor: a host tensor of the interpreter — a static shape, an element type
// and its elements in row-major order. Integers are kept exact (an element
// of a narrower type is stored wrapped to its width: sign-extended for
// signed types, zero-extended for unsigned ones, 0/1 for i1); floats are
// kept as doubles holding a value of their type exactly (a store rounds to
// the type, to nearest even, so f16/bf16/f32 arithmetic done in double and
// stored is IEEE arithmetic of that type for +, -, *, / and sqrt).
#ifndef SHARDKIT_INTERP_TENSOR_H_
#define SHARDKIT_INTERP_TENSOR_H_

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/export.h"
#include "shardkit/interp/element_type.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::interp {

// The most elements one tensor may have (a larger type is an error, not an
// allocation).
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 27;

// The number of elements of `shape`, or an error when a dimension is
// negative or the count exceeds kMaxTensorElements.
absl::StatusOr<int64_t> checkedElementCount(absl::Span<const int64_t> shape);

class Tensor {
 public:
  Tensor() = default;  // the null tensor: no type, no elements
  // A tensor of zeros (false, 0, +0.0). The element count of `shape` must be
  // at most kMaxTensorElements (see create and checkedElementCount).
  Tensor(ElementType type, std::vector<int64_t> shape);
  // The same, checking the shape first.
  static absl::StatusOr<Tensor> create(ElementType type,
                                       std::vector<int64_t> shape);
  // A rank-0 tensor.
  static Tensor scalarInt(ElementType type, int64_t value);
  static Tensor scalarFloat(ElementType type, double value);

  explicit operator bool() const { return has_type_; }
  ElementType elementType() const { return type_; }
  ElementKind kind() const { return kindOf(type_); }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[i]; }
  int64_t numElements() const { return num_elements_; }

  // Element `i` (flat, row-major) of an integer or boolean tensor.
  int64_t intAt(int64_t i) const { return ints_[i]; }
  // Element `i` of a float tensor.
  double floatAt(int64_t i) const { return floats_[i]; }
  // Element `i` of a complex tensor.
  std::complex<double> complexAt(int64_t i) const { return complex_[i]; }
  // Element `i` of any tensor as a complex number (integers and floats as
  // their real part): for conversions.
  std::complex<double> valueAt(int64_t i) const;

  // Stores `value` wrapped to the element type's width (integers) or as
  // 0/1 (i1). The tensor must have integer or boolean elements.
  void setInt(int64_t i, int64_t value);
  // Stores `value` rounded to the element type (a float type).
  void setFloat(int64_t i, double value);
  // Stores `value` with both parts rounded to the part type.
  void setComplex(int64_t i, std::complex<double> value);
  // Copies element `src_i` of `src` (of the same element type) to `i`.
  void copyElement(int64_t i, const Tensor& src, int64_t src_i);
  // Whether element `i` equals element `j` of `other` (same element type):
  // integers by value, floats and complex parts by IEEE equality (NaN is
  // unequal to everything, -0 equals +0).
  bool elementEquals(int64_t i, const Tensor& other, int64_t j) const;

  // The elements, by kind (empty for the other kinds).
  absl::Span<const int64_t> ints() const { return ints_; }
  absl::Span<const double> floats() const { return floats_; }
  absl::Span<const std::complex<double>> complexes() const { return complex_; }

  // The same elements under another shape of the same element count.
  Tensor reshaped(std::vector<int64_t> shape) const;

  // MLIR's type text, `tensor<2x3xf32>`.
  std::string typeText() const;
  // Same element type, shape and elements (floats compared bitwise, so a
  // NaN equals itself): identity of values, for tests.
  friend bool operator==(const Tensor& a, const Tensor& b);

 private:
  ElementType type_ = ElementType::kI1;
  bool has_type_ = false;
  std::vector<int64_t> shape_;
  int64_t num_elements_ = 0;
  std::vector<int64_t> ints_;
  std::vector<double> floats_;
  std::vector<std::complex<double>> complex_;
};

// `value` wrapped to the width and signedness of the integer type `type`
// (0/1 for i1). A ui64 element is kept as its bit pattern.
int64_t wrapInt(ElementType type, int64_t value);
// `value` rounded to the float type `type` (to nearest even; overflow goes
// to infinity, underflow through the subnormals).
double roundFloat(ElementType type, double value);

// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(absl::Span<const int64_t> shape);
// The flat index of `index` under `strides`.
int64_t flatIndex(absl::Span<const int64_t> index,
                  absl::Span<const int64_t> strides);
// Advances `index` to the next index of `shape` in row-major order; returns
// false (leaving it all zeros) after the last one.
bool nextIndex(std::vector<int64_t>& index, absl::Span<const int64_t> shape);

}  // namespace shardkit::interp

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERP_TENSOR_H_
