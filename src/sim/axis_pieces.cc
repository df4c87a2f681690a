#include "axis_pieces.h"

#include <algorithm>

#include "shardkit/core/axis_ref_list.h"

namespace shardkit::sim_internal {
namespace {

// True if every boundary of the sorted list divides the next one.
bool isDivisibilityChain(std::vector<int64_t>& bounds) {
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  for (size_t i = 1; i < bounds.size(); ++i) {
    if (bounds[i - 1] <= 0 || bounds[i] % bounds[i - 1] != 0) return false;
  }
  return true;
}

// The ref covering [lo, hi) of axis `name`, or nullopt when hi is not a
// multiple of lo (the interval is not a sub-axis).
std::optional<AxisRef> interval(const std::string& name, int64_t lo, int64_t hi,
                                const Mesh& mesh) {
  if (lo <= 0 || hi % lo != 0) return std::nullopt;
  return makeAxisRef(name, lo, hi / lo, mesh);
}

}  // namespace

bool canCoexist(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  if (a.name != b.name) return true;
  std::vector<int64_t> bounds = {1,           mesh.axisSize(a.name),
                                 a.preSize(), a.nextPreSize(mesh),
                                 b.preSize(), b.nextPreSize(mesh)};
  return isDivisibilityChain(bounds);
}

void cutAtBoundaries(AxisRefVector& axes, absl::Span<const AxisRef> others,
                     const Mesh& mesh) {
  AxisRefVector result;
  result.reserve(axes.size());
  for (const AxisRef& axis : axes) {
    const int64_t lo = axis.preSize();
    const int64_t hi = axis.nextPreSize(mesh);
    std::vector<int64_t> bounds = {lo, hi};
    for (const AxisRef& other : others) {
      if (other.name != axis.name || !overlaps(other, axis) ||
          contains(other, axis) || !canCoexist(axis, other, mesh)) {
        continue;
      }
      for (int64_t bound : {other.preSize(), other.nextPreSize(mesh)}) {
        if (bound > lo && bound < hi) bounds.push_back(bound);
      }
    }
    if (bounds.size() == 2 || !isDivisibilityChain(bounds)) {
      result.push_back(axis);
      continue;
    }
    for (size_t i = 1; i < bounds.size(); ++i) {
      result.push_back(*interval(axis.name, bounds[i - 1], bounds[i], mesh));
    }
  }
  axes = std::move(result);
}

AxisWithinCapacity fitAxisInCapacity(const AxisRef& axis, int64_t& capacity,
                                     const Mesh& mesh) {
  const int64_t size = axis.size(mesh);
  if (capacity <= 1 || size <= 0 ||
      (size % capacity != 0 && capacity % size != 0)) {
    return {};
  }
  if (capacity >= size) {
    capacity /= size;
    return {axis, std::nullopt};
  }
  AxisRef within(axis.name, axis.preSize(), capacity);
  AxisRef remainder(axis.name, axis.preSize() * capacity, size / capacity);
  capacity = 1;
  return {std::move(within), std::move(remainder)};
}

AxisRefVector subtractAxes(absl::Span<const AxisRef> axes,
                           absl::Span<const AxisRef> remove, const Mesh& mesh) {
  AxisRefVector result;
  for (const AxisRef& axis : axes) {
    AxisRefVector pieces = {axis};
    for (const AxisRef& gone : remove) {
      AxisRefVector kept;
      for (const AxisRef& piece : pieces) {
        if (!overlaps(piece, gone)) {
          kept.push_back(piece);
          continue;
        }
        const int64_t lo = piece.preSize(), hi = piece.nextPreSize(mesh);
        const int64_t gone_lo = gone.preSize(),
                      gone_hi = gone.nextPreSize(mesh);
        std::optional<AxisRef> major = interval(piece.name, lo, gone_lo, mesh);
        std::optional<AxisRef> minor = interval(piece.name, gone_hi, hi, mesh);
        if ((gone_lo > lo && !major) || (gone_hi < hi && !minor)) {
          kept.push_back(piece);  // Not a sub-axis boundary: keep it whole.
          continue;
        }
        if (gone_lo > lo) kept.push_back(*major);
        if (gone_hi < hi) kept.push_back(*minor);
      }
      pieces = std::move(kept);
    }
    result.insert(result.end(), pieces.begin(), pieces.end());
  }
  return result;
}

void appendOrMerge(AxisRefVector& axes, const AxisRef& axis, const Mesh& mesh) {
  appendAxes(axes, absl::MakeConstSpan(&axis, 1), mesh);
}

void popBackAxes(AxisRefVector& axes, absl::Span<const AxisRef> to_pop,
                 size_t from) {
  for (size_t k = to_pop.size(); k-- > from && !axes.empty();) {
    if (std::optional<AxisRef> prefix =
            prefixWithoutOverlap(axes.back(), to_pop[k])) {
      axes.back() = std::move(*prefix);
    } else {
      axes.pop_back();
    }
  }
}

}  // namespace shardkit::sim_internal
