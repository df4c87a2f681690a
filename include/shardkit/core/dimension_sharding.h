// DimensionSharding: the axes that shard one tensor dimension, major to minor,
// whether more axes may be added (open) and an optional user priority.
#ifndef SHARDKIT_CORE_DIMENSION_SHARDING_H_
#define SHARDKIT_CORE_DIMENSION_SHARDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/mesh.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// The priority assumed for a dimension sharding that names none (the highest).
inline constexpr int64_t kDefaultPriority = 0;

// `{"x", "y"}` (closed), `{"x", ?}` (open), `{}p2` (with priority).
struct DimensionSharding {
  AxisRefVector axes;
  bool is_closed = true;
  std::optional<int64_t> priority;

  // User-provided (not `= default`) so that value-initialization, as in
  // `vector::resize`, does not zero the inline axis storage first.
  DimensionSharding() {}  // NOLINT(modernize-use-equals-default)
  DimensionSharding(AxisRefVector axes, bool is_closed,
                    std::optional<int64_t> priority = std::nullopt)
      : axes(std::move(axes)), is_closed(is_closed), priority(priority) {}

  static DimensionSharding open() { return DimensionSharding({}, false); }
  static DimensionSharding closed() { return DimensionSharding({}, true); }

  bool isOpen() const { return !is_closed; }
  bool empty() const { return axes.empty(); }
  int64_t priorityOrDefault() const {
    return priority.value_or(kDefaultPriority);
  }
  // Product of the sizes of the axes, i.e. the number of shards.
  int64_t shardedSize(const Mesh& mesh) const {
    return axesProduct(axes, mesh);
  }

  friend bool operator==(const DimensionSharding&,
                         const DimensionSharding&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const DimensionSharding& d) {
    return H::combine(std::move(h), d.axes, d.is_closed,
                      d.priority.value_or(-1));
  }
};

// Appends `{"x", ?}p1`.
inline void appendTo(std::string& out, const DimensionSharding& dim) {
  out += '{';
  appendAxisList(out, dim.axes);
  if (!dim.is_closed) out += dim.axes.empty() ? "?" : ", ?";
  out += '}';
  if (dim.priority) strAppend(out, "p", *dim.priority);
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_DIMENSION_SHARDING_H_
