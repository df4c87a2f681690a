#include "shardkit/interp/tensor.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include "shardkit/support/strings.h"
#include "src/interp/float_bits.h"

namespace shardkit::interp {

absl::StatusOr<int64_t> checkedElementCount(absl::Span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0) {
      return absl::InvalidArgumentError(
          "the interpreter needs tensors of static shape");
    }
    if (__builtin_mul_overflow(count, d, &count) ||
        count > kMaxTensorElements) {
      return absl::ResourceExhaustedError(
          toAbsl(strCat("a tensor of more than ", kMaxTensorElements,
                        " elements is too large for the interpreter")));
    }
  }
  return count;
}

Tensor::Tensor(ElementType type, std::vector<int64_t> shape)
    : type_(type), has_type_(true), shape_(std::move(shape)) {
  num_elements_ = 1;
  for (int64_t d : shape_) num_elements_ *= d;
  switch (kindOf(type)) {
    case ElementKind::kInteger:
      ints_.assign(num_elements_, 0);
      break;
    case ElementKind::kFloat:
      floats_.assign(num_elements_, 0.0);
      break;
    case ElementKind::kComplex:
      complex_.assign(num_elements_, 0.0);
      break;
  }
}

absl::StatusOr<Tensor> Tensor::create(ElementType type,
                                      std::vector<int64_t> shape) {
  absl::StatusOr<int64_t> count = checkedElementCount(shape);
  if (!count.ok()) return count.status();
  return Tensor(type, std::move(shape));
}

Tensor Tensor::scalarInt(ElementType type, int64_t value) {
  Tensor t(type, {});
  t.setInt(0, value);
  return t;
}

Tensor Tensor::scalarFloat(ElementType type, double value) {
  Tensor t(type, {});
  t.setFloat(0, value);
  return t;
}

std::complex<double> Tensor::valueAt(int64_t i) const {
  switch (kind()) {
    case ElementKind::kInteger:
      if (type_ == ElementType::kUI64) {
        return static_cast<double>(static_cast<uint64_t>(ints_[i]));
      }
      return static_cast<double>(ints_[i]);
    case ElementKind::kFloat:
      return floats_[i];
    case ElementKind::kComplex:
      return complex_[i];
  }
  return 0;
}

void Tensor::setInt(int64_t i, int64_t value) {
  ints_[i] = wrapInt(type_, value);
}

void Tensor::setFloat(int64_t i, double value) {
  floats_[i] = roundFloat(type_, value);
}

void Tensor::setComplex(int64_t i, std::complex<double> value) {
  ElementType part = partType(type_);
  complex_[i] = {roundFloat(part, value.real()),
                 roundFloat(part, value.imag())};
}

void Tensor::copyElement(int64_t i, const Tensor& src, int64_t src_i) {
  switch (kind()) {
    case ElementKind::kInteger:
      ints_[i] = src.ints_[src_i];
      break;
    case ElementKind::kFloat:
      floats_[i] = src.floats_[src_i];
      break;
    case ElementKind::kComplex:
      complex_[i] = src.complex_[src_i];
      break;
  }
}

bool Tensor::elementEquals(int64_t i, const Tensor& other, int64_t j) const {
  switch (kind()) {
    case ElementKind::kInteger:
      return ints_[i] == other.ints_[j];
    case ElementKind::kFloat:
      return floats_[i] == other.floats_[j];
    case ElementKind::kComplex:
      return complex_[i] == other.complex_[j];
  }
  return false;
}

Tensor Tensor::reshaped(std::vector<int64_t> shape) const {
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

std::string Tensor::typeText() const {
  std::string out = "tensor<";
  for (int64_t d : shape_) out += strCat(d, "x");
  out += toString(type_);
  out += '>';
  return out;
}

bool operator==(const Tensor& a, const Tensor& b) {
  if (a.has_type_ != b.has_type_ || a.type_ != b.type_ ||
      a.shape_ != b.shape_ || a.ints_ != b.ints_) {
    return false;
  }
  auto same_bits = [](double x, double y) {
    return std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y);
  };
  for (size_t i = 0; i < a.floats_.size(); ++i) {
    if (!same_bits(a.floats_[i], b.floats_[i])) return false;
  }
  for (size_t i = 0; i < a.complex_.size(); ++i) {
    if (!same_bits(a.complex_[i].real(), b.complex_[i].real()) ||
        !same_bits(a.complex_[i].imag(), b.complex_[i].imag())) {
      return false;
    }
  }
  return true;
}

int64_t wrapInt(ElementType type, int64_t value) {
  int bits = bitWidth(type);
  if (bits == 1) return value != 0 ? 1 : 0;
  if (bits >= 64) return value;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if (isSignedInteger(type) && (low >> (bits - 1)) != 0) low |= ~mask;
  return static_cast<int64_t>(low);
}

double roundFloat(ElementType type, double value) {
  switch (type) {
    case ElementType::kF64:
      return value;
    case ElementType::kF32:
      return static_cast<float>(value);
    default:
      return roundToFormat(value, floatFormat(type));
  }
}

std::vector<int64_t> stridesOf(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

int64_t flatIndex(absl::Span<const int64_t> index,
                  absl::Span<const int64_t> strides) {
  int64_t flat = 0;
  for (size_t i = 0; i < index.size(); ++i) flat += index[i] * strides[i];
  return flat;
}

bool nextIndex(std::vector<int64_t>& index, absl::Span<const int64_t> shape) {
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    if (++index[i] < shape[i]) return true;
    index[i] = 0;
  }
  return false;
}

}  // namespace shardkit::interp
