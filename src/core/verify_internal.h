// Helpers shared by the verifier's source files (not part of the public API).
#ifndef SHARDKIT_SRC_CORE_VERIFY_INTERNAL_H_
#define SHARDKIT_SRC_CORE_VERIFY_INTERNAL_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/strings.h"

namespace shardkit::verify_internal {

inline absl::Status invalid(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// `"a"`: how messages quote a name.
inline std::string quoted(std::string_view name) {
  return strCat("\"", name, "\"");
}

// `["x", "y":(1)2]`: how messages print an expected dimension sharding.
std::string bracketedAxes(absl::Span<const AxisRef> axes);

// Collects the axis refs of one or more lists that must be disjoint (a
// sharding's dimensions, replicated and unreduced axes; a collective's axes).
// `addList` checks what can be seen in list order (unknown names, duplicate
// refs, adjacent mergeable sub-axes); `finish` then checks every sub-axis
// against its full axis and against the other sub-axes of that axis.
class AxisRefChecker {
 public:
  explicit AxisRefChecker(const Mesh& mesh);

  absl::Status addList(absl::Span<const AxisRef> axes);
  absl::Status finish() const;

 private:
  const Mesh& mesh_;
  // An ordered set: AxisRef is not hashable with this Abseil (no
  // std::optional support in absl::Hash).
  std::set<AxisRef> seen_;
  // Per mesh axis (by index): the sub-axes seen, and whether the full axis
  // was seen.
  std::vector<std::vector<SubAxisInfo>> sub_axes_;
  std::vector<bool> full_axis_seen_;
};

// Checks a sub-axis `axis` of the full axis of size `axis_size` on its own:
// pre-size >= 1, size > 1, pre-size * size divides the axis size, and the
// size differs from the axis size.
absl::Status checkSubAxis(const AxisRef& axis, int64_t axis_size);

// `a * b`, or false on int64 overflow.
inline bool checkedMul(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

}  // namespace shardkit::verify_internal

#endif  // SHARDKIT_SRC_CORE_VERIFY_INTERNAL_H_
