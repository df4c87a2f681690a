// Execution of every sdy collective on per-device buffers.
//
// Data movement follows each collective's communication groups (devices that
// differ only along the collective's axes): all_gather and all_to_all
// assemble a device's new block from its group's blocks, all_slice keeps
// part of the device's own block, collective_permute receives one whole
// block from a device with the same unreduced coordinates, all_reduce and
// reduce_scatter reduce over the group, and the unreduced conversions keep a
// device's data in place and fill the rest with the reduction's identity.
#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "device_layout.h"
#include "shardkit/core/verify.h"
#include "shardkit/sim/simulator.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

using sim_internal::ShardLayout;

int64_t identity(ReductionKind kind) {
  switch (kind) {
    case ReductionKind::kSum:
      return 0;
    case ReductionKind::kMax:
      return std::numeric_limits<int64_t>::min() + 1;
    case ReductionKind::kMin:
      return std::numeric_limits<int64_t>::max();
  }
  return 0;
}

int64_t combine(ReductionKind kind, int64_t a, int64_t b) {
  switch (kind) {
    case ReductionKind::kSum:  // Wraps rather than overflowing.
      return static_cast<int64_t>(static_cast<uint64_t>(a) +
                                  static_cast<uint64_t>(b));
    case ReductionKind::kMax:
      return std::max(a, b);
    case ReductionKind::kMin:
      return std::min(a, b);
  }
  return a;
}

absl::Status failure(const Collective& c, std::string_view message) {
  return absl::InvalidArgumentError(
      toAbsl(strCat(mnemonic(c.kind), ": ", message)));
}

AxisRefVector concat(const ListOfAxisRefLists& lists) {
  AxisRefVector axes;
  for (const AxisRefList& list : lists) {
    axes.insert(axes.end(), list.begin(), list.end());
  }
  return axes;
}

// Every axis the simulation reads must be a valid (sub-)axis of the mesh.
absl::Status checkAxes(const Collective& c, const DistributedTensor& operand,
                       const Mesh& out_mesh) {
  AxisRefVector axes = concat(c.axes_per_dim);
  axes.insert(axes.end(), c.axes.items.begin(), c.axes.items.end());
  for (const AllToAllParam& param : c.params) {
    axes.insert(axes.end(), param.axes.begin(), param.axes.end());
  }
  for (const AxisRef& axis : axes) {
    absl::Status status = verifyAxisRef(axis, operand.mesh);
    if (!status.ok()) return failure(c, fromAbsl(status.message()));
  }
  for (const auto& [sharding, mesh] :
       {std::pair{&operand.sharding, &operand.mesh},
        std::pair{&c.out_sharding, &out_mesh}}) {
    absl::Status status =
        verifyTensorShardingWithMesh(*sharding, *mesh, operand.shape);
    if (!status.ok()) return failure(c, fromAbsl(status.message()));
  }
  return absl::OkStatus();
}

// Calls fn(out_offset, in_offset) for every non-padded global position that
// both the `out` block of device `id` and the `in` block of device `src`
// cover.
void forEachOverlap(const ShardLayout& out, int64_t id, const ShardLayout& in,
                    int64_t src,
                    const std::function<void(int64_t, int64_t)>& fn) {
  const size_t rank = out.shape.size();
  std::vector<int64_t> lo(rank), hi(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t out_start = out.starts[id][d], in_start = in.starts[src][d];
    lo[d] = std::max(out_start, in_start);
    hi[d] = std::min({out_start + out.local_shape[d],
                      in_start + in.local_shape[d], out.shape[d]});
    if (lo[d] >= hi[d]) return;
  }
  std::vector<int64_t> g = lo;
  while (true) {
    int64_t out_offset = 0, in_offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      out_offset += (g[d] - out.starts[id][d]) * out.local_strides[d];
      in_offset += (g[d] - in.starts[src][d]) * in.local_strides[d];
    }
    fn(out_offset, in_offset);
    size_t d = rank;
    while (d > 0 && ++g[d - 1] == hi[d - 1]) {
      g[d - 1] = lo[d - 1];
      --d;
    }
    if (d == 0) return;
  }
}

// The simulation of one collective: operand and result layouts and buffers.
class Execution {
 public:
  Execution(const DistributedTensor& operand, const Collective& c,
            MeshDevices in_devices, MeshDevices out_devices, ShardLayout in,
            ShardLayout out, const Mesh& target_mesh)
      : operand_(operand),
        c_(c),
        in_devices_(std::move(in_devices)),
        out_devices_(std::move(out_devices)),
        in_(std::move(in)),
        out_(std::move(out)) {
    result_.shape = operand.shape;
    result_.padded_shape = operand.padded_shape;
    result_.sharding = c.out_sharding;
    result_.mesh = target_mesh;
    result_.shards.resize(out_devices_.id_bound);
    for (int64_t id : out_devices_.ids) {
      result_.shards[id].assign(out_.local_size, kPadding);
    }
  }

  absl::StatusOr<DistributedTensor> run() {
    for (int64_t id : in_devices_.ids) {
      if (static_cast<int64_t>(operandShard(id).size()) != in_.local_size) {
        return failure(c_, strCat("the shard of device ", id,
                                  " does not have the operand's local shape"));
      }
    }
    switch (c_.kind) {
      case CollectiveKind::kAllGather:
        return assembleFromGroups(concat(c_.axes_per_dim));
      case CollectiveKind::kAllSlice:
        return assembleFromGroups({});
      case CollectiveKind::kAllToAll: {
        AxisRefVector axes;
        for (const AllToAllParam& p : c_.params) {
          axes.insert(axes.end(), p.axes.begin(), p.axes.end());
        }
        return assembleFromGroups(axes);
      }
      case CollectiveKind::kCollectivePermute:
        return permute();
      case CollectiveKind::kAllReduce:
        return reduceOverGroups(c_.axes.items);
      case CollectiveKind::kReduceScatter:
        return reduceOverGroups(concat(c_.axes_per_dim));
      case CollectiveKind::kShardedToUnreduced:
      case CollectiveKind::kReplicatedToUnreduced:
        return makeUnreduced();
    }
    return failure(c_, "unknown collective");
  }

 private:
  const std::vector<int64_t>& operandShard(int64_t id) const {
    return operand_.shards[id];
  }

  // Calls `fn(offset, element)` for each element of device `src`'s operand
  // block that device `id`'s new block holds, at its offset there.
  template <typename Fn>
  void forEachElementFrom(int64_t id, int64_t src, Fn fn) const {
    const std::vector<int64_t>& from = operandShard(src);
    forEachOverlap(out_, id, in_, src,
                   [&](int64_t o, int64_t i) { fn(o, from[i]); });
  }

  // Runs `fill(id, shard, group)` for every device's new block (`group`: the
  // devices that differ from device `id` only along `axes`), then returns
  // the result, unless `fill` fails.
  template <typename Fill>
  absl::StatusOr<DistributedTensor> overGroups(const AxisRefVector& axes,
                                               Fill fill) {
    std::vector<std::vector<int64_t>> groups =
        groupsAlong(axes, operand_.mesh, in_devices_);
    for (int64_t id : out_devices_.ids) {
      SK_RETURN_IF_ERROR(fill(id, result_.shards[id], groups[id]));
    }
    return std::move(result_);
  }

  // Every device's block from the blocks of the devices that differ from it
  // only along `axes`.
  absl::StatusOr<DistributedTensor> assembleFromGroups(
      const AxisRefVector& axes) {
    return overGroups(axes, [&](int64_t id, std::vector<int64_t>& shard,
                                const std::vector<int64_t>& group) {
      std::vector<bool> filled(out_.local_size, false);
      for (int64_t src : group) {
        forEachElementFrom(id, src, [&](int64_t o, int64_t element) {
          if (!filled[o]) shard[o] = element;
          filled[o] = true;
        });
      }
      for (int64_t offset = 0; offset < out_.local_size; ++offset) {
        if (!filled[offset] && out_.globalIndex(id, offset) >= 0) {
          return failure(c_, strCat("device ", id, " needs element ",
                                    out_.globalIndex(id, offset),
                                    ", which no device of its group holds"));
        }
      }
      return absl::OkStatus();
    });
  }

  // Every device receives the one whole block it needs from a device with
  // the same coordinates along the unreduced axes.
  absl::StatusOr<DistributedTensor> permute() {
    if (out_.local_shape != in_.local_shape) {
      return failure(c_, "the shard shape changes");
    }
    const AxisRefVector& unreduced = operand_.sharding.unreduced_axes;
    for (int64_t id : out_devices_.ids) {
      int64_t partial =
          coordinateAlong(unreduced, result_.mesh, out_devices_, id);
      int64_t source = -1;
      for (int64_t src : in_devices_.ids) {
        if (in_.starts[src] == out_.starts[id] &&
            coordinateAlong(unreduced, operand_.mesh, in_devices_, src) ==
                partial) {
          source = src;
          break;
        }
      }
      if (source < 0) {
        return failure(
            c_, strCat("no device holds the block device ", id, " needs"));
      }
      result_.shards[id] = operandShard(source);
    }
    return std::move(result_);
  }

  // Every element of a device's new block is the reduction over its group
  // (devices differing only along `axes`, which hold the same block).
  absl::StatusOr<DistributedTensor> reduceOverGroups(
      const AxisRefVector& axes) {
    return overGroups(axes, [&](int64_t id, std::vector<int64_t>& shard,
                                const std::vector<int64_t>& group) {
      bool first = true;
      for (int64_t src : group) {
        if (in_.starts[src] != in_.starts[id]) {
          return failure(c_, strCat("devices ", id, " and ", src,
                                    " reduce different blocks"));
        }
        forEachElementFrom(id, src, [&](int64_t o, int64_t element) {
          shard[o] = first ? element : combine(c_.reduction, shard[o], element);
        });
        first = false;
      }
      return absl::OkStatus();
    });
  }

  // sharded_to_unreduced keeps the device's block inside its larger new
  // block; replicated_to_unreduced keeps the block on the devices at
  // coordinate 0 of the new axes. Everything else is the identity.
  absl::StatusOr<DistributedTensor> makeUnreduced() {
    const ReductionKind kind = c_.out_sharding.unreduced_kind;
    const bool sharded = c_.kind == CollectiveKind::kShardedToUnreduced;
    for (int64_t id : out_devices_.ids) {
      std::vector<int64_t>& shard = result_.shards[id];
      for (int64_t offset = 0; offset < out_.local_size; ++offset) {
        if (out_.globalIndex(id, offset) >= 0) shard[offset] = identity(kind);
      }
      const bool keeps =
          sharded || kind != ReductionKind::kSum ||
          coordinateAlong(c_.axes.items, operand_.mesh, in_devices_, id) == 0;
      if (!keeps) continue;
      forEachElementFrom(
          id, id, [&](int64_t o, int64_t element) { shard[o] = element; });
    }
    return std::move(result_);
  }

  const DistributedTensor& operand_;
  const Collective& c_;
  MeshDevices in_devices_;
  MeshDevices out_devices_;
  ShardLayout in_;
  ShardLayout out_;
  DistributedTensor result_;
};

}  // namespace

absl::StatusOr<DistributedTensor> simulateCollective(
    const DistributedTensor& operand, const Collective& collective,
    const Mesh& target_mesh) {
  const int64_t rank = static_cast<int64_t>(operand.shape.size());
  if (operand.sharding.rank() != rank ||
      collective.out_sharding.rank() != rank) {
    return failure(collective, "sharding rank differs from the tensor's");
  }
  const Mesh& out_mesh = collective.kind == CollectiveKind::kCollectivePermute
                             ? target_mesh
                             : operand.mesh;
  if (!(out_mesh.axes == operand.mesh.axes)) {
    return failure(collective, "the meshes have different axes");
  }
  SK_RETURN_IF_ERROR(checkAxes(collective, operand, out_mesh));
  SK_ASSIGN_OR_RETURN(MeshDevices in_devices, MeshDevices::of(operand.mesh));
  SK_ASSIGN_OR_RETURN(MeshDevices out_devices, MeshDevices::of(out_mesh));
  if (in_devices.id_bound != out_devices.id_bound ||
      static_cast<int64_t>(operand.shards.size()) != in_devices.id_bound) {
    return failure(collective, "the operand is not on the mesh's devices");
  }
  SK_ASSIGN_OR_RETURN(
      ShardLayout in,
      ShardLayout::of(operand.sharding, operand.mesh, in_devices, operand.shape,
                      operand.padded_shape));
  absl::StatusOr<ShardLayout> out =
      ShardLayout::of(collective.out_sharding, out_mesh, out_devices,
                      operand.shape, operand.padded_shape);
  if (!out.ok()) return failure(collective, fromAbsl(out.status().message()));
  return Execution(operand, collective, std::move(in_devices),
                   std::move(out_devices), std::move(in), *std::move(out),
                   out_mesh)
      .run();
}

}  // namespace shardkit
