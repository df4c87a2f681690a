// ResolvedAxis: an axis ref bound to one mesh, the unit the propagation engine
// works with. Instead of a name it holds the index of the mesh axis, so the
// hot paths compare integers and never touch strings; `AxisList` keeps a
// dimension's or factor's axes inline.
//
// The algebra mirrors the one on `AxisRef` (shardkit/core/axis_ref.h) and adds
// the co-existence test the engine needs: two sub-axes of one axis that come
// from different splits (e.g. "x":(1)2 and "x":(3)2 of "x"=6) can never shard
// the same tensor, even though their intervals do not intersect.
#ifndef SHARDKIT_FACTOR_PROPAGATION_RESOLVED_AXIS_H_
#define SHARDKIT_FACTOR_PROPAGATION_RESOLVED_AXIS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// A full mesh axis or the sub-axis `(pre_size)size` of it. A full axis has
// pre_size 1 and size = the axis size; `full` tells it apart from a sub-axis
// (which matters for mesh axes of size 1, whose interval is empty).
struct ResolvedAxis {
  int32_t axis = 0;  // Index into Mesh::axes.
  bool full = true;
  int64_t pre_size = 1;
  int64_t size = 1;

  static ResolvedAxis fullAxis(int32_t axis, int64_t axis_size) {
    return ResolvedAxis{axis, true, 1, axis_size};
  }
  // The sub-axis `(pre_size)size` of `axis`, or the full axis when it covers
  // all of it.
  static ResolvedAxis subAxis(int32_t axis, int64_t pre_size, int64_t size,
                              int64_t axis_size) {
    if (pre_size == 1 && size == axis_size) return fullAxis(axis, axis_size);
    return ResolvedAxis{axis, false, pre_size, size};
  }

  bool isSubAxis() const { return !full; }
  int64_t nextPreSize() const { return pre_size * size; }

  friend bool operator==(const ResolvedAxis& a, const ResolvedAxis& b) {
    return a.axis == b.axis && a.full == b.full && a.pre_size == b.pre_size &&
           a.size == b.size;
  }
  friend bool operator!=(const ResolvedAxis& a, const ResolvedAxis& b) {
    return !(a == b);
  }
};

// The axes of one dimension or factor, major to minor.
using AxisList = absl::InlinedVector<ResolvedAxis, 4>;
using AxisSpan = absl::Span<const ResolvedAxis>;

// `a` covers all of `b`.
bool contains(const ResolvedAxis& a, const ResolvedAxis& b);
// `a` and `b` share a part of the same mesh axis.
bool overlaps(const ResolvedAxis& a, const ResolvedAxis& b);
// `a` is a major part of `b` (or equal to it).
bool isPrefixOf(const ResolvedAxis& a, const ResolvedAxis& b);
// False if `a` and `b` are sub-axes of one axis from incompatible splits, so
// they can't both appear in one sharding.
bool canCoexist(const ResolvedAxis& a, const ResolvedAxis& b);
// The largest prefix of `a` that doesn't overlap `b` (all of `a` if they don't
// overlap), or nullopt if there is none or they can't co-exist.
std::optional<ResolvedAxis> prefixWithoutOverlap(const ResolvedAxis& a,
                                                 const ResolvedAxis& b);
// The largest prefix of `a` that overlaps none of `others`.
std::optional<ResolvedAxis> prefixWithoutOverlap(const ResolvedAxis& a,
                                                 AxisSpan others);
// `a` is immediately followed by `b` within one axis.
bool canMerge(const ResolvedAxis& a, const ResolvedAxis& b);
// The merge of `a` and `b` (requires canMerge).
ResolvedAxis merge(const ResolvedAxis& a, const ResolvedAxis& b,
                   const Mesh& mesh);
// Appends `axis`, merging it into the last axis of `axes` when possible.
void addAxisOrMerge(AxisList& axes, const ResolvedAxis& axis, const Mesh& mesh);
// Product of the sizes of `axes`.
int64_t totalSize(AxisSpan axes);

// How `prefix` relates to `axes` as axis lists: equal, a strict prefix (its
// last axis may be a prefix of the corresponding axis), or neither.
enum class PrefixStatus { kEqual, kStrictPrefix, kNotAPrefix };
PrefixStatus axisListPrefixStatus(AxisSpan prefix, AxisSpan axes);
inline bool isStrictPrefix(AxisSpan prefix, AxisSpan axes) {
  return axisListPrefixStatus(prefix, axes) == PrefixStatus::kStrictPrefix;
}

// Binds `axis` to `mesh`; InvalidArgument if the mesh has no such axis or
// the sub-axis doesn't fit in it.
absl::StatusOr<ResolvedAxis> resolveAxis(const AxisRef& axis, const Mesh& mesh);
absl::Status resolveAxes(absl::Span<const AxisRef> axes, const Mesh& mesh,
                         AxisList& out);
// The AxisRef that `axis` stands for in `mesh`.
AxisRef toAxisRef(const ResolvedAxis& axis, const Mesh& mesh);
AxisRefVector toAxisRefs(AxisSpan axes, const Mesh& mesh);

// `"x"` / `"x":(2)4`, for messages and tests.
std::string toString(const ResolvedAxis& axis, const Mesh& mesh);
std::string toString(AxisSpan axes, const Mesh& mesh);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_RESOLVED_AXIS_H_
