// Helpers shared by the verifier's headers (core/verify_*.h); not part of the
// public API.
#ifndef SHARDKIT_INTERNAL_CORE_VERIFY_UTIL_H_
#define SHARDKIT_INTERNAL_CORE_VERIFY_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/internal/position_index.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::verify_internal {

inline absl::Status invalid(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// `"a"`: how messages quote a name.
inline std::string quoted(std::string_view name) {
  return strCat("\"", name, "\"");
}

using shardkit::checkedMul;

// `["x", "y":(1)2]`: how messages print an expected dimension sharding.
inline std::string bracketedAxes(absl::Span<const AxisRef> axes) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i > 0) out += ", ";
    out += toString(axes[i]);
  }
  out += "]";
  return out;
}

// The key the verifiers sort by (internal/position_index.h).
using core_detail::TripleKey;

// For each of `keys` (pairs in `first` and `second`), whether an earlier key
// equals it (what inserting them in order into a set would reject), in
// O(n log n).
inline std::vector<char> repeatsOf(std::vector<TripleKey> keys) {
  for (size_t i = 0; i < keys.size(); ++i) keys[i].third = i;
  std::sort(keys.begin(), keys.end());
  std::vector<char> repeated(keys.size(), 0);
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i].first == keys[i - 1].first &&
        keys[i].second == keys[i - 1].second) {
      repeated[keys[i].third] = 1;
    }
  }
  return repeated;
}

// Checks a sub-axis `axis` of the full axis of size `axis_size` on its own:
// pre-size >= 1, size > 1, pre-size * size divides the axis size, and the
// size differs from the axis size.
inline absl::Status checkSubAxis(const AxisRef& axis, int64_t axis_size) {
  const SubAxisInfo& info = *axis.sub_axis_info;
  if (info.pre_size < 1) {
    return invalid(
        strCat("sub-axis pre-size must be at least 1: ", toString(axis)));
  }
  if (info.size <= 1) {
    return invalid(
        strCat("sub-axis sizes must be greater than 1: ", toString(axis)));
  }
  int64_t next_pre_size = 0;
  if (!checkedMul(info.pre_size, info.size, next_pre_size)) {
    return invalid(
        strCat("sub-axis next pre-size overflows int64: ", toString(axis)));
  }
  if (axis_size % next_pre_size != 0) {
    return invalid(strCat("sub-axis next pre-size ", next_pre_size,
                          " doesn't divide the size of the full axis ",
                          axis_size, ": ", toString(axis)));
  }
  if (info.size == axis_size) {
    return invalid(strCat("sub-axis size is equal to the full axis size: ",
                          toString(axis)));
  }
  return absl::OkStatus();
}

// Collects the axis refs of one or more lists that must be disjoint (a
// sharding's dimensions, replicated and unreduced axes; a collective's axes).
// `addList` checks what can be seen in list order (unknown names, duplicate
// refs, adjacent mergeable sub-axes); `finish` then checks every sub-axis
// against its full axis and against the other sub-axes of that axis.
class AxisRefChecker {
 public:
  explicit AxisRefChecker(const Mesh& mesh)
      : mesh_(mesh), full_axis_seen_(mesh.axes.size(), 0) {}

  absl::Status addList(absl::Span<const AxisRef> axes) {
    const AxisRef* previous = nullptr;
    for (const AxisRef& axis : axes) {
      int index = mesh_.axisIndex(axis.name);
      if (index < 0) {
        return invalid(strCat("unknown axis name: ", quoted(axis.name)));
      }
      if (!insert(index, axis)) {
        return invalid(strCat("duplicate axis ref: ", toString(axis)));
      }
      // Overlapping neighbours are reported by `finish` instead.
      if (axis.isSubAxis() && previous != nullptr &&
          canMerge(*previous, axis)) {
        return invalid(strCat("two consecutive sub-axes can be merged: ",
                              toString(*previous), ", ", toString(axis)));
      }
      previous = &axis;
    }
    return absl::OkStatus();
  }

  absl::Status finish() {
    // By mesh axis, then by (pre-size, size): the order errors are found in.
    std::sort(sub_axes_.begin(), sub_axes_.end());
    for (size_t i = 0; i < sub_axes_.size(); ++i) {
      const int64_t index = sub_axes_[i].first;
      const SubAxisInfo info = subAxisInfo(sub_axes_[i]);
      const MeshAxis& mesh_axis = mesh_.axes[index];
      const bool first_of_axis = i == 0 || sub_axes_[i - 1].first != index;
      if (first_of_axis && full_axis_seen_[index]) {
        return invalid(
            strCat("both sub-axis and full-axis are used for axis name: ",
                   quoted(mesh_axis.name)));
      }
      AxisRef axis(mesh_axis.name, info);
      SK_RETURN_IF_ERROR(checkSubAxis(axis, mesh_axis.size));
      // Valid sub-axes have a next pre-size that fits (it divides the size).
      if (first_of_axis) continue;
      const SubAxisInfo previous = subAxisInfo(sub_axes_[i - 1]);
      if (previous.nextPreSize() > info.pre_size) {
        return invalid(strCat("overlapping sub-axes: ",
                              toString(AxisRef(mesh_axis.name, previous)), ", ",
                              toString(axis)));
      }
    }
    return absl::OkStatus();
  }

 private:
  // A sub-axis as (mesh axis index, pre-size, size).
  using SubAxis = TripleKey;
  static SubAxisInfo subAxisInfo(const SubAxis& sub) {
    return SubAxisInfo{sub.second, sub.third};
  }

  // Records the ref `axis` of mesh axis `index`; false if it was seen.
  bool insert(int index, const AxisRef& axis) {
    if (!axis.isSubAxis()) {
      if (full_axis_seen_[index]) return false;
      full_axis_seen_[index] = 1;
      return true;
    }
    const SubAxis sub{index, axis.sub_axis_info->pre_size,
                      axis.sub_axis_info->size};
    // Sub-axes are few (an axis has at most 63 disjoint ones: their sizes
    // are at least 2 and multiply to at most 2^63), so a linear search serves
    // common inputs; past kLinearSearchLimit a hash index keeps any input
    // linear.
    if (sub_axes_.size() < kLinearSearchLimit) {
      if (std::find(sub_axes_.begin(), sub_axes_.end(), sub) !=
          sub_axes_.end()) {
        return false;
      }
    } else {
      if (many_sub_axes_.size() == 0) {
        for (size_t i = 0; i < sub_axes_.size(); ++i) {
          many_sub_axes_.add(static_cast<int32_t>(i),
                             core_detail::hashTriple(sub_axes_[i]));
        }
      }
      const uint64_t hash = core_detail::hashTriple(sub);
      if (many_sub_axes_.find(
              hash, [&](int32_t i) { return sub_axes_[i] == sub; }) >= 0) {
        return false;
      }
      many_sub_axes_.add(static_cast<int32_t>(sub_axes_.size()), hash);
    }
    sub_axes_.push_back(sub);
    return true;
  }

  static constexpr size_t kLinearSearchLimit = 64;

  const Mesh& mesh_;
  // Per mesh axis (by index): whether the full axis was seen.
  absl::InlinedVector<char, 8> full_axis_seen_;
  // The sub-axes seen, by mesh axis index, in the order they were seen
  // (sorted by `finish`).
  std::vector<SubAxis> sub_axes_;
  // Positions in sub_axes_ once there are kLinearSearchLimit of them.
  core_detail::PositionIndex many_sub_axes_;
};

}  // namespace shardkit::verify_internal

#endif  // SHARDKIT_INTERNAL_CORE_VERIFY_UTIL_H_
