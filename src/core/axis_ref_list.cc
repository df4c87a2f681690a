#include "shardkit/core/axis_ref_list.h"

#include <algorithm>
#include <utility>

namespace shardkit {

int64_t axesProduct(absl::Span<const AxisRef> axes, const Mesh& mesh) {
  int64_t product = 1;
  for (const AxisRef& axis : axes) product *= axis.size(mesh);
  return product;
}

bool overlapsAny(absl::Span<const AxisRef> axes, const AxisRef& axis) {
  return std::any_of(axes.begin(), axes.end(),
                     [&](const AxisRef& a) { return overlaps(a, axis); });
}

bool isAxisListPrefixOf(absl::Span<const AxisRef> prefix,
                        absl::Span<const AxisRef> axes) {
  if (prefix.size() > axes.size()) return false;
  if (prefix.empty()) return true;
  for (size_t i = 0; i + 1 < prefix.size(); ++i) {
    if (prefix[i] != axes[i]) return false;
  }
  return isPrefixOf(prefix.back(), axes[prefix.size() - 1]);
}

void mergeAdjacentSubAxes(std::vector<AxisRef>& axes, const Mesh& mesh) {
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
  axes.resize(out + 1);
}

void sortAndMergeAxes(std::vector<AxisRef>& axes, const Mesh& mesh) {
  std::sort(axes.begin(), axes.end(), MeshAxisLess(mesh));
  mergeAdjacentSubAxes(axes, mesh);
}

bool removeAxisListSuffix(std::vector<AxisRef>& axes,
                          absl::Span<const AxisRef> suffix, const Mesh& mesh) {
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
    axes.resize(end);
    return true;
  }
  axes.resize(end);
  return true;
}

void appendAxes(std::vector<AxisRef>& axes,
                absl::Span<const AxisRef> axes_to_add, const Mesh& mesh) {
  for (const AxisRef& axis : axes_to_add) {
    if (!axes.empty() && canMerge(axes.back(), axis)) {
      axes.back() = merge(axes.back(), axis, mesh);
    } else {
      axes.push_back(axis);
    }
  }
}

std::vector<AxisRef> complementAxes(absl::Span<const AxisRef> used,
                                    const Mesh& mesh) {
  std::vector<AxisRef> result;
  for (const MeshAxis& mesh_axis : mesh.axes) {
    // The used intervals [pre, next_pre) of this axis, by start.
    std::vector<std::pair<int64_t, int64_t>> intervals;
    for (const AxisRef& axis : used) {
      if (axis.name == mesh_axis.name) {
        intervals.emplace_back(axis.preSize(), axis.nextPreSize(mesh));
      }
    }
    std::sort(intervals.begin(), intervals.end());
    int64_t covered_to = 1;
    for (const auto& [lo, hi] : intervals) {
      if (lo > covered_to) {
        result.push_back(
            makeAxisRef(mesh_axis.name, covered_to, lo / covered_to, mesh));
      }
      covered_to = std::max(covered_to, hi);
    }
    if (covered_to < mesh_axis.size) {
      result.push_back(makeAxisRef(mesh_axis.name, covered_to,
                                   mesh_axis.size / covered_to, mesh));
    }
  }
  return result;
}

}  // namespace shardkit
