// Helpers shared by the verifier's headers (core/verify_*.h); not part of the
// public API.
#ifndef SHARDKIT_CORE_DETAIL_VERIFY_UTIL_H_
#define SHARDKIT_CORE_DETAIL_VERIFY_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/checked_math.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"

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
      : mesh_(mesh),
        sub_axes_(mesh.axes.size()),
        full_axis_seen_(mesh.axes.size(), false) {}

  absl::Status addList(absl::Span<const AxisRef> axes) {
    const AxisRef* previous = nullptr;
    for (const AxisRef& axis : axes) {
      int index = mesh_.axisIndex(axis.name);
      if (index < 0) {
        return invalid(strCat("unknown axis name: ", quoted(axis.name)));
      }
      if (!seen_.insert(axis).second) {
        return invalid(strCat("duplicate axis ref: ", toString(axis)));
      }
      if (axis.isSubAxis()) {
        sub_axes_[index].push_back(*axis.sub_axis_info);
        // Overlapping neighbours are reported by `finish` instead.
        if (previous != nullptr && canMerge(*previous, axis)) {
          return invalid(strCat("two consecutive sub-axes can be merged: ",
                                toString(*previous), ", ", toString(axis)));
        }
      } else {
        full_axis_seen_[index] = true;
      }
      previous = &axis;
    }
    return absl::OkStatus();
  }

  absl::Status finish() const {
    for (size_t index = 0; index < mesh_.axes.size(); ++index) {
      if (sub_axes_[index].empty()) continue;
      const MeshAxis& mesh_axis = mesh_.axes[index];
      if (full_axis_seen_[index]) {
        return invalid(
            strCat("both sub-axis and full-axis are used for axis name: ",
                   quoted(mesh_axis.name)));
      }
      std::vector<SubAxisInfo> sorted = sub_axes_[index];
      std::sort(sorted.begin(), sorted.end());
      const SubAxisInfo* previous = nullptr;
      for (const SubAxisInfo& info : sorted) {
        AxisRef axis(mesh_axis.name, info);
        SK_RETURN_IF_ERROR(checkSubAxis(axis, mesh_axis.size));
        // Valid sub-axes have a next pre-size that fits (it divides the
        // size).
        if (previous != nullptr && previous->nextPreSize() > info.pre_size) {
          return invalid(strCat("overlapping sub-axes: ",
                                toString(AxisRef(mesh_axis.name, *previous)),
                                ", ", toString(axis)));
        }
        previous = &info;
      }
    }
    return absl::OkStatus();
  }

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

}  // namespace shardkit::verify_internal

#endif  // SHARDKIT_CORE_DETAIL_VERIFY_UTIL_H_
