// Algebra on sequences of axis refs (a dimension's sharding axes, a tensor's
// replicated axes, a collective's axes), and the AxisRefList value type.
#ifndef SHARDKIT_CORE_AXIS_REF_LIST_H_
#define SHARDKIT_CORE_AXIS_REF_LIST_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/value_list.h"
#include "shardkit/internal/position_index.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// A list of axis refs, printed `{"a", "b":(1)2}`.
using AxisRefList = ValueList<AxisRef, struct AxisRefListTag, AxisRefVector>;

// Product of the sizes of `axes` in `mesh`.
inline int64_t axesProduct(absl::Span<const AxisRef> axes, const Mesh& mesh) {
  int64_t product = 1;
  for (const AxisRef& axis : axes) product *= axis.size(mesh);
  return product;
}

// True if any axis ref in `axes` overlaps `axis`.
inline bool overlapsAny(absl::Span<const AxisRef> axes, const AxisRef& axis) {
  return std::any_of(axes.begin(), axes.end(),
                     [&](const AxisRef& a) { return overlaps(a, axis); });
}

// True if `prefix` is a prefix of `axes` in the axis-ref sense: equal
// element-wise, except that the last element of `prefix` may be a prefix of
// the corresponding element of `axes`.
inline bool isAxisListPrefixOf(absl::Span<const AxisRef> prefix,
                               absl::Span<const AxisRef> axes) {
  if (prefix.size() > axes.size()) return false;
  if (prefix.empty()) return true;
  for (size_t i = 0; i + 1 < prefix.size(); ++i) {
    if (prefix[i] != axes[i]) return false;
  }
  return isPrefixOf(prefix.back(), axes[prefix.size() - 1]);
}

// Merges every pair of adjacent, consecutive sub-axes of the same axis in
// place (keeping order), using the full axis when a merge covers it.
inline void mergeAdjacentSubAxes(AxisRefVector& axes, const Mesh& mesh) {
  if (axes.size() < 2) return;
  size_t out = 0;
  for (size_t i = 1; i < axes.size(); ++i) {
    if (canMerge(axes[out], axes[i])) {
      axes[out] = merge(axes[out], axes[i], mesh);
    } else {
      ++out;
      if (out != i) axes[out] = std::move(axes[i]);
    }
  }
  truncateAxes(axes, out + 1);
}

// Sorts `axes` in mesh order and merges the consecutive sub-axes that end up
// adjacent: the canonical form of replicated and unreduced axes.
inline void sortAndMergeAxes(AxisRefVector& axes, const Mesh& mesh) {
  std::sort(axes.begin(), axes.end(), MeshAxisLess(mesh));
  mergeAdjacentSubAxes(axes, mesh);
}

// Removes from `axes` the suffix `suffix` (which may split the last remaining
// axis, e.g. {"x"} minus {"x":(2)2} with x=4 is {"x":(1)2}). Returns false,
// leaving `axes` unspecified, when `suffix` is not a suffix of `axes`.
inline bool removeAxisListSuffix(AxisRefVector& axes,
                                 absl::Span<const AxisRef> suffix,
                                 const Mesh& mesh) {
  size_t end = axes.size();
  for (size_t k = suffix.size(); k-- > 0;) {
    if (end == 0) return false;
    const AxisRef& current = axes[end - 1];
    if (current == suffix[k]) {
      --end;
      continue;
    }
    // Only the most major axis of the suffix may be a part of an axis.
    if (k != 0 || !isSuffixOf(suffix[k], current, mesh)) return false;
    std::optional<AxisRef> rest = prefixWithoutOverlap(current, suffix[k]);
    if (!rest) return false;
    axes[end - 1] = *rest;
    truncateAxes(axes, end);
    return true;
  }
  truncateAxes(axes, end);
  return true;
}

// Appends `axes_to_add` to `axes`, merging the junction when the last axis of
// `axes` and the first added one are consecutive sub-axes.
inline void appendAxes(AxisRefVector& axes,
                       absl::Span<const AxisRef> axes_to_add,
                       const Mesh& mesh) {
  for (const AxisRef& axis : axes_to_add) {
    if (!axes.empty() && canMerge(axes.back(), axis)) {
      axes.back() = merge(axes.back(), axis, mesh);
    } else {
      axes.push_back(axis);
    }
  }
}

// Expands every axis ref into the list of sub-axes of `axes` that are not
// covered by any ref in `used`, e.g. the axes of a mesh not used by a sharding.
// Result is in mesh order with consecutive pieces merged.
inline AxisRefVector complementAxes(absl::Span<const AxisRef> used,
                                    const Mesh& mesh) {
  AxisRefVector result;
  for (const MeshAxis& mesh_axis : mesh.axes) {
    // The used intervals [pre, next_pre) of this axis, by start (as
    // TripleKeys: the core's one sort of integers).
    std::vector<core_detail::TripleKey> intervals;
    for (const AxisRef& axis : used) {
      if (axis.name == mesh_axis.name) {
        intervals.push_back({axis.preSize(), axis.nextPreSize(mesh), 0});
      }
    }
    std::sort(intervals.begin(), intervals.end());
    int64_t covered_to = 1;
    for (const core_detail::TripleKey& interval : intervals) {
      const int64_t lo = interval.first;
      if (lo > covered_to) {
        result.push_back(
            makeAxisRef(mesh_axis.name, covered_to, lo / covered_to, mesh));
      }
      covered_to = std::max(covered_to, interval.second);
    }
    if (covered_to < mesh_axis.size) {
      result.push_back(makeAxisRef(mesh_axis.name, covered_to,
                                   mesh_axis.size / covered_to, mesh));
    }
  }
  return result;
}

// The parts of the axes of `a` that no axis of `b` covers, in the order of
// `a` (an axis partly covered leaves its uncovered sub-axes), e.g. {"x", "y"}
// minus {"x":(2)2} on ["x"=4, "y"=2] is {"x":(1)2, "y"}.
inline AxisRefVector axisSetDifference(absl::Span<const AxisRef> a,
                                       absl::Span<const AxisRef> b,
                                       const Mesh& mesh) {
  AxisRefVector result;
  for (const AxisRef& axis : a) {
    // Uncovered intervals [lo, hi) of this axis, split by each axis of `b`.
    std::vector<std::pair<int64_t, int64_t>> pieces = {
        {axis.preSize(), axis.nextPreSize(mesh)}};
    for (const AxisRef& other : b) {
      if (other.name != axis.name) continue;
      int64_t lo = other.preSize();
      int64_t hi = other.nextPreSize(mesh);
      std::vector<std::pair<int64_t, int64_t>> rest;
      for (const auto& [plo, phi] : pieces) {
        if (hi <= plo || phi <= lo) {
          rest.emplace_back(plo, phi);
          continue;
        }
        if (plo < lo) rest.emplace_back(plo, lo);
        if (hi < phi) rest.emplace_back(hi, phi);
      }
      pieces = std::move(rest);
    }
    for (const auto& [lo, hi] : pieces) {
      result.push_back(makeAxisRef(axis.name, lo, hi / lo, mesh));
    }
  }
  return result;
}

// Appends `"a", "b":(1)2` (without braces).
inline void appendAxisList(std::string& out, absl::Span<const AxisRef> axes) {
  appendJoined(out, axes, appendPrintable);
}

// Appends `{"a", "b":(1)2}`, the text of an axis list.
inline void appendBracedAxisList(std::string& out,
                                 absl::Span<const AxisRef> axes) {
  appendList(out, "{", axes, appendPrintable, "}");
}
inline void appendTo(std::string& out, const AxisRefList& list) {
  appendBracedAxisList(out, list);
}

// The text appendBracedAxisList appends.
inline std::string axisListToString(absl::Span<const AxisRef> axes) {
  std::string out;
  appendBracedAxisList(out, axes);
  return out;
}

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::AxisRefList);

#endif  // SHARDKIT_CORE_AXIS_REF_LIST_H_
