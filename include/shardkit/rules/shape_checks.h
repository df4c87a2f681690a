// Argument checks shared by the op rule factories: each returns OK or an
// InvalidArgument status that names the op and the offending value, so a bad
// op description never reaches an out-of-range index.
#ifndef SHARDKIT_RULES_SHAPE_CHECKS_H_
#define SHARDKIT_RULES_SHAPE_CHECKS_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

inline int64_t rankOf(const Shape& shape) {
  return static_cast<int64_t>(shape.size());
}

// `count` tensors were given where `expected` are needed.
absl::Status checkCount(std::string_view op, std::string_view what,
                        size_t count, size_t expected);

// `shape` has exactly `rank` dimensions.
absl::Status checkRank(std::string_view op, std::string_view what,
                       const Shape& shape, int64_t rank);

// `shape` has at least `rank` dimensions.
absl::Status checkMinRank(std::string_view op, std::string_view what,
                          const Shape& shape, int64_t rank);

// `a` and `b` are the same shape.
absl::Status checkSameShape(std::string_view op, std::string_view what,
                            const Shape& a, const Shape& b);

// All of `shapes` are the same shape (vacuous for fewer than two).
absl::Status checkAllSameShape(std::string_view op, std::string_view what,
                               absl::Span<const Shape> shapes);

// `dim` is a dimension of a tensor of rank `rank`.
absl::Status checkDimIndex(std::string_view op, std::string_view what,
                           int64_t dim, int64_t rank);

// Every entry of `dims` is a dimension of rank `rank`, none twice.
absl::Status checkDimList(std::string_view op, std::string_view what,
                          absl::Span<const int64_t> dims, int64_t rank);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_SHAPE_CHECKS_H_
