// Algebra on sequences of axis refs (a dimension's sharding axes, a tensor's
// replicated axes, a collective's axes), and the AxisRefList value type.
#ifndef SHARDKIT_CORE_AXIS_REF_LIST_H_
#define SHARDKIT_CORE_AXIS_REF_LIST_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/mesh.h"

namespace shardkit {

// A list of axis refs, printed `{"a", "b":(1)2}`.
struct AxisRefList {
  std::vector<AxisRef> axes;

  AxisRefList() = default;
  explicit AxisRefList(std::vector<AxisRef> axes) : axes(std::move(axes)) {}

  bool empty() const { return axes.empty(); }
  size_t size() const { return axes.size(); }
  friend bool operator==(const AxisRefList&, const AxisRefList&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const AxisRefList& l) {
    return H::combine(std::move(h), l.axes);
  }
};

// Product of the sizes of `axes` in `mesh`.
int64_t axesProduct(absl::Span<const AxisRef> axes, const Mesh& mesh);

// True if any axis ref in `axes` overlaps `axis`.
bool overlapsAny(absl::Span<const AxisRef> axes, const AxisRef& axis);

// True if `prefix` is a prefix of `axes` in the axis-ref sense: equal
// element-wise, except that the last element of `prefix` may be a prefix of
// the corresponding element of `axes`.
bool isAxisListPrefixOf(absl::Span<const AxisRef> prefix,
                        absl::Span<const AxisRef> axes);

// Merges every pair of adjacent, consecutive sub-axes of the same axis in
// place (keeping order), using the full axis when a merge covers it.
void mergeAdjacentSubAxes(std::vector<AxisRef>& axes, const Mesh& mesh);

// Sorts `axes` in mesh order and merges the consecutive sub-axes that end up
// adjacent: the canonical form of replicated and unreduced axes.
void sortAndMergeAxes(std::vector<AxisRef>& axes, const Mesh& mesh);

// Removes from `axes` the suffix `suffix` (which may split the last remaining
// axis, e.g. {"x"} minus {"x":(2)2} with x=4 is {"x":(1)2}). Returns false,
// leaving `axes` unspecified, when `suffix` is not a suffix of `axes`.
bool removeAxisListSuffix(std::vector<AxisRef>& axes,
                          absl::Span<const AxisRef> suffix, const Mesh& mesh);

// Appends `axes_to_add` to `axes`, merging the junction when the last axis of
// `axes` and the first added one are consecutive sub-axes.
void appendAxes(std::vector<AxisRef>& axes,
                absl::Span<const AxisRef> axes_to_add, const Mesh& mesh);

// Expands every axis ref into the list of sub-axes of `axes` that are not
// covered by any ref in `used`, e.g. the axes of a mesh not used by a sharding.
// Result is in mesh order with consecutive pieces merged.
std::vector<AxisRef> complementAxes(absl::Span<const AxisRef> used,
                                    const Mesh& mesh);

// `{"a", "b":(1)2}`, the text of an axis list.
std::string axisListToString(absl::Span<const AxisRef> axes);
std::string toString(const AxisRefList& list);

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::AxisRefList);

#endif  // SHARDKIT_CORE_AXIS_REF_LIST_H_
