#include "shardkit/factor_propagation/resolved_axis.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "shardkit/support/strings.h"

namespace shardkit {

bool contains(const ResolvedAxis& a, const ResolvedAxis& b) {
  if (a.axis != b.axis) return false;
  if (a.full) return true;
  if (b.full) return false;
  return a.pre_size <= b.pre_size && a.nextPreSize() >= b.nextPreSize();
}

bool overlaps(const ResolvedAxis& a, const ResolvedAxis& b) {
  if (a.axis != b.axis) return false;
  if (a.full || b.full) return true;
  return a.pre_size < b.nextPreSize() && b.pre_size < a.nextPreSize();
}

bool isPrefixOf(const ResolvedAxis& a, const ResolvedAxis& b) {
  return contains(b, a) && a.pre_size == b.pre_size;
}

bool canCoexist(const ResolvedAxis& a, const ResolvedAxis& b) {
  if (a.axis != b.axis || a.full || b.full) return true;
  // Values, not std::minmax: it returns references to the temporaries.
  int64_t min_pre = std::min(a.pre_size, b.pre_size);
  int64_t max_pre = std::max(a.pre_size, b.pre_size);
  int64_t min_next = std::min(a.nextPreSize(), b.nextPreSize());
  int64_t max_next = std::max(a.nextPreSize(), b.nextPreSize());
  if (min_next > max_pre) {
    // The sub-axes overlap: the shared part and both ends must be splits of
    // one reshape of the axis.
    return min_next % max_pre == 0 && max_pre % min_pre == 0 &&
           max_next % min_next == 0;
  }
  // Disjoint: the gap between them must be a whole sub-axis.
  return max_pre % min_next == 0;
}

std::optional<ResolvedAxis> prefixWithoutOverlap(const ResolvedAxis& a,
                                                 const ResolvedAxis& b) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (!overlaps(a, b)) return a;
  if (a.pre_size >= b.pre_size) return std::nullopt;
  // `b` starts strictly inside `a`, so the prefix is a proper sub-axis.
  return ResolvedAxis{a.axis, false, a.pre_size, b.pre_size / a.pre_size};
}

std::optional<ResolvedAxis> prefixWithoutOverlap(const ResolvedAxis& a,
                                                 AxisSpan others) {
  ResolvedAxis result = a;
  for (const ResolvedAxis& other : others) {
    if (other.axis != result.axis) continue;  // The common, cheap case.
    std::optional<ResolvedAxis> prefix = prefixWithoutOverlap(result, other);
    if (!prefix) return std::nullopt;
    result = *prefix;
  }
  return result;
}

bool canMerge(const ResolvedAxis& a, const ResolvedAxis& b) {
  return a.axis == b.axis && !a.full && !b.full &&
         a.nextPreSize() == b.pre_size;
}

ResolvedAxis merge(const ResolvedAxis& a, const ResolvedAxis& b,
                   const Mesh& mesh) {
  return ResolvedAxis::subAxis(a.axis, a.pre_size, a.size * b.size,
                               mesh.axes[a.axis].size);
}

void addAxisOrMerge(AxisList& axes, const ResolvedAxis& axis,
                    const Mesh& mesh) {
  if (!axes.empty() && canMerge(axes.back(), axis)) {
    axes.back() = merge(axes.back(), axis, mesh);
  } else {
    axes.push_back(axis);
  }
}

int64_t totalSize(AxisSpan axes) {
  int64_t product = 1;
  for (const ResolvedAxis& axis : axes) product *= axis.size;
  return product;
}

PrefixStatus axisListPrefixStatus(AxisSpan prefix, AxisSpan axes) {
  if (prefix.empty()) {
    return axes.empty() ? PrefixStatus::kEqual : PrefixStatus::kStrictPrefix;
  }
  if (prefix.size() > axes.size()) return PrefixStatus::kNotAPrefix;
  size_t last = prefix.size() - 1;
  for (size_t i = 0; i < last; ++i) {
    if (prefix[i] != axes[i]) return PrefixStatus::kNotAPrefix;
  }
  if (prefix.size() == axes.size() && prefix[last] == axes[last]) {
    return PrefixStatus::kEqual;
  }
  return isPrefixOf(prefix[last], axes[last]) ? PrefixStatus::kStrictPrefix
                                              : PrefixStatus::kNotAPrefix;
}

absl::StatusOr<ResolvedAxis> resolveAxis(const AxisRef& axis,
                                         const Mesh& mesh) {
  int index = mesh.axisIndex(axis.name);
  if (index < 0) {
    return absl::InvalidArgumentError(toAbsl(
        strCat("unknown axis \"", axis.name, "\" for mesh ", toString(mesh))));
  }
  int64_t axis_size = mesh.axes[index].size;
  if (!axis.sub_axis_info) return ResolvedAxis::fullAxis(index, axis_size);
  const SubAxisInfo& info = *axis.sub_axis_info;
  if (info.pre_size < 1 || info.size < 1 ||
      axis_size % (info.pre_size * info.size) != 0) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("sub-axis ", toString(axis), " doesn't fit axis \"",
                      axis.name, "\" of size ", axis_size)));
  }
  return ResolvedAxis::subAxis(index, info.pre_size, info.size, axis_size);
}

absl::Status resolveAxes(absl::Span<const AxisRef> axes, const Mesh& mesh,
                         AxisList& out) {
  out.clear();
  for (const AxisRef& axis : axes) {
    absl::StatusOr<ResolvedAxis> resolved = resolveAxis(axis, mesh);
    if (!resolved.ok()) return resolved.status();
    out.push_back(*resolved);
  }
  return absl::OkStatus();
}

AxisRef toAxisRef(const ResolvedAxis& axis, const Mesh& mesh) {
  const std::string& name = mesh.axes[axis.axis].name;
  if (axis.full) return AxisRef(name);
  return AxisRef(name, axis.pre_size, axis.size);
}

AxisRefVector toAxisRefs(AxisSpan axes, const Mesh& mesh) {
  AxisRefVector result;
  result.reserve(axes.size());
  for (const ResolvedAxis& axis : axes) result.push_back(toAxisRef(axis, mesh));
  return result;
}

std::string toString(const ResolvedAxis& axis, const Mesh& mesh) {
  return toString(toAxisRef(axis, mesh));
}

std::string toString(AxisSpan axes, const Mesh& mesh) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i > 0) out += ", ";
    out += toString(axes[i], mesh);
  }
  out += "]";
  return out;
}

}  // namespace shardkit
