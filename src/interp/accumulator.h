// Internal to the interp layer: a sum of products in a result's element
// type (dot_general, convolution), rounded after each product and sum as
// the result type's arithmetic rounds.
#ifndef SHARDKIT_SRC_INTERP_ACCUMULATOR_H_
#define SHARDKIT_SRC_INTERP_ACCUMULATOR_H_

#include <complex>
#include <cstdint>

#include "shardkit/interp/tensor.h"

namespace shardkit::interp {

class DotAccumulator {
 public:
  explicit DotAccumulator(ElementType type) : type_(type) {}

  void reset() {
    ints_ = 0;
    floats_ = 0;
    complex_ = 0;
  }
  // Adds a[i] * b[j] (both converted to the result type).
  void add(const Tensor& a, int64_t i, const Tensor& b, int64_t j) {
    switch (kindOf(type_)) {
      case ElementKind::kInteger: {
        uint64_t x = static_cast<uint64_t>(a.intAt(i));
        uint64_t y = static_cast<uint64_t>(b.intAt(j));
        if (isBool(type_)) {
          ints_ |= (x & y);
        } else {
          ints_ += x * y;
        }
        break;
      }
      case ElementKind::kFloat: {
        double p = roundFloat(type_, a.valueAt(i).real() * b.valueAt(j).real());
        floats_ = roundFloat(type_, floats_ + p);
        break;
      }
      case ElementKind::kComplex: {
        ElementType part = partType(type_);
        std::complex<double> p = a.valueAt(i) * b.valueAt(j);
        p = {roundFloat(part, p.real()), roundFloat(part, p.imag())};
        complex_ += p;
        complex_ = {roundFloat(part, complex_.real()),
                    roundFloat(part, complex_.imag())};
        break;
      }
    }
  }
  void store(Tensor& r, int64_t k) const {
    switch (kindOf(type_)) {
      case ElementKind::kInteger:
        r.setInt(k, static_cast<int64_t>(ints_));
        break;
      case ElementKind::kFloat:
        r.setFloat(k, floats_);
        break;
      case ElementKind::kComplex:
        r.setComplex(k, complex_);
        break;
    }
  }

 private:
  ElementType type_;
  uint64_t ints_ = 0;
  double floats_ = 0;
  std::complex<double> complex_ = 0;
};

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_ACCUMULATOR_H_
