// What a sharding means for storage: shard counts per dimension, the local
// (per-device) shape, and which device holds which shard.
#ifndef SHARDKIT_CORE_SHARDING_MATH_H_
#define SHARDKIT_CORE_SHARDING_MATH_H_

#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

// The number of shards of every dimension: the product of its axis sizes.
inline std::vector<int64_t> shardCounts(const TensorSharding& sharding,
                                        const Mesh& mesh) {
  std::vector<int64_t> counts;
  counts.reserve(sharding.dim_shardings.size());
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    counts.push_back(dim.shardedSize(mesh));
  }
  return counts;
}

namespace sharding_math_internal {

// How many of `axes`, one after another, divide `left` evenly; `left` ends
// as what remains of it after them.
inline size_t evenlyDividingPrefix(const AxisRefVector& axes, int64_t& left,
                                   const Mesh& mesh) {
  size_t kept = 0;
  for (; kept < axes.size(); ++kept) {
    int64_t size = axes[kept].size(mesh);
    if (std::gcd(size, left) != size) break;
    left /= size;
  }
  return kept;
}

}  // namespace sharding_math_internal

// Whether every axis of `sharding` divides what its dimension of `shape` has
// left evenly: evenlySharded would return `sharding` unchanged.
inline bool isEvenlySharded(const TensorSharding& sharding,
                            absl::Span<const int64_t> shape, const Mesh& mesh) {
  for (size_t d = 0; d < sharding.dim_shardings.size() && d < shape.size();
       ++d) {
    const AxisRefVector& axes = sharding.dim_shardings[d].axes;
    int64_t left = shape[d];
    if (sharding_math_internal::evenlyDividingPrefix(axes, left, mesh) !=
        axes.size()) {
      return false;
    }
  }
  return true;
}

// `sharding` with every dimension cut to the longest prefix of its axes that
// divides the dimension's size evenly; an axis that only partly divides what
// is left contributes its largest dividing sub-axis (from its start) and ends
// the dimension. Open/closed, replicated and unreduced axes are kept, e.g.
// [{"y", "x"}] on a dimension of 6 with ["x"=8, "y"=3] becomes
// [{"y", "x":(1)2}].
inline TensorSharding evenlySharded(const TensorSharding& sharding,
                                    absl::Span<const int64_t> shape,
                                    const Mesh& mesh) {
  TensorSharding result = sharding;
  for (size_t d = 0; d < result.dim_shardings.size() && d < shape.size(); ++d) {
    AxisRefVector& axes = result.dim_shardings[d].axes;
    int64_t left = shape[d];
    size_t kept =
        sharding_math_internal::evenlyDividingPrefix(axes, left, mesh);
    if (kept == axes.size()) continue;
    std::optional<AxisRef> partial;
    if (int64_t common = std::gcd(axes[kept].size(mesh), left); common > 1) {
      partial =
          makeAxisRef(axes[kept].name, axes[kept].preSize(), common, mesh);
    }
    truncateAxes(axes, kept);
    if (partial) axes.push_back(*partial);
  }
  return result;
}

// The shape each device holds: every static dimension divided by its shard
// count, rounded up (the last shards are padded when it does not divide).
// Dynamic dimensions stay dynamic.
inline std::vector<int64_t> localShape(const TensorSharding& sharding,
                                       const Mesh& mesh,
                                       TensorShapeView shape) {
  std::vector<int64_t> local(shape.dims().begin(), shape.dims().end());
  for (size_t i = 0; i < local.size() && i < sharding.dim_shardings.size();
       ++i) {
    if (local[i] == kDynamicSize) continue;
    int64_t shards = sharding.dim_shardings[i].shardedSize(mesh);
    local[i] = (local[i] + shards - 1) / shards;
  }
  return local;
}

// The coordinate of every mesh axis for the device at `position` in the
// mesh's device order (row-major over the axes).
inline std::vector<int64_t> meshCoordinates(const Mesh& mesh,
                                            int64_t position) {
  std::vector<int64_t> coords(mesh.axes.size());
  for (size_t i = mesh.axes.size(); i-- > 0;) {
    coords[i] = position % mesh.axes[i].size;
    position /= mesh.axes[i].size;
  }
  return coords;
}

// The shard index along every dimension held by the device at `position` in
// the mesh's device order.
inline std::vector<int64_t> shardIndexAt(const TensorSharding& sharding,
                                         const Mesh& mesh, int64_t position) {
  std::vector<int64_t> coords = meshCoordinates(mesh, position);
  std::vector<int64_t> index;
  index.reserve(sharding.dim_shardings.size());
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    // Mixed radix over the dimension's axes, major to minor. A sub-axis
    // (pre)size of an axis of size n is the middle digit of the coordinate
    // written in radix [pre, size, n / (pre * size)].
    int64_t shard = 0;
    for (const AxisRef& axis : dim.axes) {
      int axis_index = mesh.axisIndex(axis.name);
      if (axis_index < 0) continue;
      int64_t axis_size = mesh.axes[axis_index].size;
      int64_t size = axis.size(mesh);
      int64_t post = axis_size / axis.nextPreSize(mesh);
      int64_t digit = (coords[axis_index] / post) % size;
      shard = shard * size + digit;
    }
    index.push_back(shard);
  }
  return index;
}

// For every device id of the mesh (in mesh order), the multi-dimensional
// shard index it holds. Devices not told apart by any sharding axis hold the
// same shard (they are replicas).
struct DeviceShard {
  int64_t device_id;
  std::vector<int64_t> shard_index;
};
inline std::vector<DeviceShard> deviceShards(const TensorSharding& sharding,
                                             const Mesh& mesh) {
  std::vector<int64_t> ids = mesh.deviceIdsOrIota();
  std::vector<DeviceShard> result;
  result.reserve(ids.size());
  for (size_t position = 0; position < ids.size(); ++position) {
    result.push_back({ids[position], shardIndexAt(sharding, mesh, position)});
  }
  return result;
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_SHARDING_MATH_H_
