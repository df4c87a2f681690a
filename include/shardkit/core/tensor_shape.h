// TensorShapeView: the shape a sharding is checked against.
#ifndef SHARDKIT_CORE_TENSOR_SHAPE_H_
#define SHARDKIT_CORE_TENSOR_SHAPE_H_

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "absl/types/span.h"

namespace shardkit {

// A dimension whose size is not known statically (`?` in `tensor<?x8xf32>`).
inline constexpr int64_t kDynamicSize = -1;

// The static dimensions of a ranked tensor, or a value that has no shape at
// all (a token), which only a rank-0 sharding may describe.
class TensorShapeView {
 public:
  TensorShapeView(absl::Span<const int64_t> dims) : dims_(dims) {}    // NOLINT
  TensorShapeView(const std::vector<int64_t>& dims) : dims_(dims) {}  // NOLINT
  TensorShapeView(std::initializer_list<int64_t> dims)                // NOLINT
      : dims_(dims) {}
  static TensorShapeView nonShaped() { return TensorShapeView(); }

  bool isShaped() const { return shaped_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  absl::Span<const int64_t> dims() const { return dims_; }
  int64_t operator[](size_t i) const { return dims_[i]; }
  bool isStatic() const {
    for (int64_t d : dims_) {
      if (d == kDynamicSize) return false;
    }
    return true;
  }

 private:
  TensorShapeView() : shaped_(false) {}
  absl::Span<const int64_t> dims_;
  bool shaped_ = true;
};

}  // namespace shardkit

#endif  // SHARDKIT_CORE_TENSOR_SHAPE_H_
