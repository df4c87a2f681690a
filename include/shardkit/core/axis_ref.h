// SubAxisInfo and AxisRef: a reference to a full mesh axis or to a sub-axis
// `"x":(pre)size`, and the algebra on them.
//
// Splitting an axis of size n into sub-axes reshapes it into [k1, ..., km];
// sub-axis i is named by its pre-size k1*...*k(i-1) and its size ki. The
// relations below (containment, overlap, prefix, merge) are all arithmetic on
// the half-open interval [pre-size, pre-size * size) in the multiplicative
// sense, so they never need the other sub-axes.
#ifndef SHARDKIT_CORE_AXIS_REF_H_
#define SHARDKIT_CORE_AXIS_REF_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/mesh.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// How a sub-axis is carved out of its full axis: `(pre_size)size`.
struct SubAxisInfo {
  int64_t pre_size = 1;
  int64_t size = 1;

  // The pre-size of the sub-axis that would follow this one.
  int64_t nextPreSize() const { return pre_size * size; }

  friend bool operator==(const SubAxisInfo&, const SubAxisInfo&) = default;
  // Orders by pre-size, then size.
  friend auto operator<=>(const SubAxisInfo&, const SubAxisInfo&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const SubAxisInfo& s) {
    return H::combine(std::move(h), s.pre_size, s.size);
  }
};

// A full axis `"x"` or a sub-axis `"x":(2)4` of a mesh.
struct AxisRef {
  std::string name;
  std::optional<SubAxisInfo> sub_axis_info;

  AxisRef() = default;
  explicit AxisRef(std::string name) : name(std::move(name)) {}
  AxisRef(std::string name, int64_t pre_size, int64_t size)
      : name(std::move(name)), sub_axis_info(SubAxisInfo{pre_size, size}) {}
  AxisRef(std::string name, std::optional<SubAxisInfo> info)
      : name(std::move(name)), sub_axis_info(info) {}

  bool isSubAxis() const { return sub_axis_info.has_value(); }
  // 1 for a full axis.
  int64_t preSize() const {
    return sub_axis_info ? sub_axis_info->pre_size : 1;
  }
  // The size of this axis ref in `mesh` (the axis's size for a full axis).
  int64_t size(const Mesh& mesh) const {
    return sub_axis_info ? sub_axis_info->size : mesh.axisSize(name);
  }
  int64_t nextPreSize(const Mesh& mesh) const { return preSize() * size(mesh); }

  friend bool operator==(const AxisRef&, const AxisRef&) = default;
  // Mesh-independent total order: by name, then a sub-axis before the full
  // axis, then sub-axes by (pre-size, size). Use `MeshAxisLess` for the order
  // a mesh defines.
  friend bool operator<(const AxisRef& a, const AxisRef& b) {
    if (a.name != b.name) return a.name < b.name;
    if (!a.sub_axis_info) return false;
    if (!b.sub_axis_info) return true;
    return *a.sub_axis_info < *b.sub_axis_info;
  }
  template <typename H>
  friend H AbslHashValue(H h, const AxisRef& a) {
    // Debian's Abseil does not hash std::optional; spell it out.
    h = H::combine(std::move(h), a.name, a.sub_axis_info.has_value());
    if (a.sub_axis_info) h = H::combine(std::move(h), *a.sub_axis_info);
    return h;
  }
};

// A sequence of axis refs: a dimension's axes, a tensor's replicated or
// unreduced axes, a collective's axes. Such lists are short, so two refs are
// kept inline: a sharding is parsed, copied and projected without allocating
// for its axes.
inline constexpr size_t kInlineAxisRefs = 2;
using AxisRefVector = absl::InlinedVector<AxisRef, kInlineAxisRefs>;

// Keeps the first `size` refs of `axes` (at most its size). Cheaper to
// compile than InlinedVector::resize, which every includer would instantiate.
inline void truncateAxes(AxisRefVector& axes, size_t size) {
  while (axes.size() > size) axes.pop_back();
}

// True if `a` covers all of `b`: same axis and b's interval inside a's.
inline bool contains(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.sub_axis_info) return true;
  if (!b.sub_axis_info) return false;
  return a.sub_axis_info->pre_size <= b.sub_axis_info->pre_size &&
         a.sub_axis_info->nextPreSize() >= b.sub_axis_info->nextPreSize();
}
inline bool strictlyContains(const AxisRef& a, const AxisRef& b) {
  return contains(a, b) && a != b;
}
// True if `a` and `b` share any part of the same axis.
inline bool overlaps(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.sub_axis_info || !b.sub_axis_info) return true;
  return a.sub_axis_info->pre_size < b.sub_axis_info->nextPreSize() &&
         b.sub_axis_info->pre_size < a.sub_axis_info->nextPreSize();
}
// True if `a` is a major part of `b`: b contains a and both start together.
inline bool isPrefixOf(const AxisRef& a, const AxisRef& b) {
  return contains(b, a) && a.preSize() == b.preSize();
}
inline bool isStrictPrefixOf(const AxisRef& a, const AxisRef& b) {
  return isPrefixOf(a, b) && a != b;
}
// True if `a` is a minor part of `b`: b contains a and both end together.
inline bool isSuffixOf(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  return contains(b, a) && a.nextPreSize(mesh) == b.nextPreSize(mesh);
}
// True if `a` is immediately followed by `b` within the same axis, so that
// `a, b` can be replaced by one (sub-)axis.
inline bool canMerge(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name || !a.sub_axis_info || !b.sub_axis_info) return false;
  return a.sub_axis_info->nextPreSize() == b.sub_axis_info->pre_size;
}
// Builds the (sub-)axis of `name` covering [pre_size, pre_size*size), using
// the full axis when it covers all of it.
inline AxisRef makeAxisRef(std::string_view name, int64_t pre_size,
                           int64_t size, const Mesh& mesh) {
  if (pre_size == 1 && size == mesh.axisSize(name)) {
    return AxisRef(std::string(name));
  }
  return AxisRef(std::string(name), pre_size, size);
}
// The merge of `a` and `b` (requires canMerge); the full axis when the result
// covers it.
inline AxisRef merge(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  return makeAxisRef(a.name, a.sub_axis_info->pre_size,
                     a.sub_axis_info->size * b.sub_axis_info->size, mesh);
}
// The largest prefix of `a` that does not overlap `b`, or nullopt if there is
// none (b starts at or before a).
inline std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& a,
                                                   const AxisRef& b) {
  if (!overlaps(a, b)) return a;
  int64_t a_pre = a.preSize();
  int64_t b_pre = b.preSize();
  if (a_pre >= b_pre) return std::nullopt;
  return AxisRef(a.name, a_pre, b_pre / a_pre);
}
// The smaller of `a` and `b` if one is a prefix of the other.
inline std::optional<AxisRef> greatestCommonPrefix(const AxisRef& a,
                                                   const AxisRef& b) {
  if (isPrefixOf(a, b)) return a;
  if (isPrefixOf(b, a)) return b;
  return std::nullopt;
}

// Orders axis refs the way `mesh` orders its axes; for two refs to the same
// axis, a sub-axis comes before the full axis and sub-axes are ordered by
// (pre-size, size). Axes unknown to the mesh sort last, by name.
class MeshAxisLess {
 public:
  explicit MeshAxisLess(const Mesh& mesh) : mesh_(&mesh) {}
  bool operator()(const AxisRef& a, const AxisRef& b) const {
    if (a.name == b.name) {
      if (!a.sub_axis_info) return false;
      if (!b.sub_axis_info) return true;
      return *a.sub_axis_info < *b.sub_axis_info;
    }
    int ia = mesh_->axisIndex(a.name);
    int ib = mesh_->axisIndex(b.name);
    if (ia < 0 && ib < 0) return a.name < b.name;
    if (ia < 0) return false;
    if (ib < 0) return true;
    return ia < ib;
  }

 private:
  const Mesh* mesh_;
};

// Appends `(2)4`.
inline void appendTo(std::string& out, const SubAxisInfo& info) {
  strAppend(out, "(", info.pre_size, ")", info.size);
}

// Appends `"x"` or `"x":(2)4`.
inline void appendTo(std::string& out, const AxisRef& axis) {
  appendQuoted(out, axis.name);
  if (axis.sub_axis_info) {
    out += ':';
    appendTo(out, *axis.sub_axis_info);
  }
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_AXIS_REF_H_
