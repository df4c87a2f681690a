// Sub-axis arithmetic the reshard planner and the collectives need beyond
// core's axis-ref algebra: cutting axis refs into pieces at the boundaries of
// other refs, splitting a ref to fit a capacity, and set difference of axis
// lists. Internal to the sim layer.
//
// A (sub-)axis of an axis of size n is the multiplicative interval
// [pre-size, pre-size * size) of [1, n). Two refs of the same axis "coexist"
// when one decomposition of the axis into consecutive pieces has both as
// unions of pieces, i.e. their sorted boundaries divide one another.
#ifndef SHARDKIT_SRC_SIM_AXIS_PIECES_H_
#define SHARDKIT_SRC_SIM_AXIS_PIECES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"

namespace shardkit::sim_internal {

// True if `a` and `b` (refs of the same axis) can be pieces of one
// decomposition of it. Refs of different axes always coexist.
bool canCoexist(const AxisRef& a, const AxisRef& b, const Mesh& mesh);

// Cuts every ref of `axes` at the boundaries of the refs in `others` that
// overlap it and coexist with it, so that afterwards every ref of `axes`
// either equals a piece of an overlapping ref of `others` or does not
// overlap it. Pieces keep their major-to-minor order in place of the ref.
void cutAtBoundaries(AxisRefVector& axes, absl::Span<const AxisRef> others,
                     const Mesh& mesh);

// A ref split to fit a capacity: `within` has size min(size, capacity), and
// `remainder` (if any) is the rest of the ref, minor to `within`.
struct AxisWithinCapacity {
  std::optional<AxisRef> within;
  std::optional<AxisRef> remainder;
};

// Fits `axis` into `capacity` (> 1, and the axis size and capacity dividing
// one another; otherwise nothing fits), dividing `capacity` by the size of
// the part that fits.
AxisWithinCapacity fitAxisInCapacity(const AxisRef& axis, int64_t& capacity,
                                     const Mesh& mesh);

// The parts of the refs in `axes` not covered by any ref in `remove`, in the
// order of `axes` (a ref may leave a major and a minor part).
AxisRefVector subtractAxes(absl::Span<const AxisRef> axes,
                           absl::Span<const AxisRef> remove, const Mesh& mesh);

// Appends `axis` to `axes`, merging it into the last ref when they are
// consecutive sub-axes.
void appendOrMerge(AxisRefVector& axes, const AxisRef& axis, const Mesh& mesh);

// Removes the refs `to_pop[from..]` from the end of `axes`, most minor
// first, where the last ref of `axes` may be a merge of several of them.
void popBackAxes(AxisRefVector& axes, absl::Span<const AxisRef> to_pop,
                 size_t from);

}  // namespace shardkit::sim_internal

#endif  // SHARDKIT_SRC_SIM_AXIS_PIECES_H_
