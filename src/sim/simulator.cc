// Distributing the iota tensor, checking what devices hold, and simulating a
// whole chain of collectives.
#include "shardkit/sim/simulator.h"

#include <numeric>
#include <utility>

#include "device_layout.h"
#include "shardkit/core/sharding_math.h"
#include "shardkit/core/verify.h"
#include "shardkit/sim/reshard_plan.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

using sim_internal::ShardLayout;

// Tensors larger than this are not simulated.
constexpr int64_t kMaxElements = int64_t{1} << 24;

absl::Status invalid(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// SplitMix64: a small deterministic generator for the partial values.
class SplitMix {
 public:
  explicit SplitMix(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int64_t below(int64_t bound) {
    return static_cast<int64_t>(next() % static_cast<uint64_t>(bound));
  }

 private:
  uint64_t state_;
};

// Splits every element of the group's shards into partial values that
// reduce to it: random summands, or values at most the element (max) / at
// least it (min) with one device holding the element itself.
void splitIntoPartials(const std::vector<int64_t>& group, ReductionKind kind,
                       std::vector<std::vector<int64_t>>& shards,
                       SplitMix& rng) {
  const size_t size = shards[group.front()].size();
  for (size_t k = 0; k < size; ++k) {
    const int64_t value = shards[group.front()][k];
    if (value == kPadding) continue;
    const int64_t exact = rng.below(static_cast<int64_t>(group.size()));
    int64_t rest = value;
    for (size_t m = 0; m < group.size(); ++m) {
      int64_t& partial = shards[group[m]][k];
      if (kind == ReductionKind::kSum) {
        partial = m + 1 == group.size() ? rest : rng.below(129) - 64;
        rest -= partial;
      } else {
        int64_t offset = static_cast<int64_t>(m) == exact ? 0 : rng.below(4);
        partial = kind == ReductionKind::kMax ? value - offset : value + offset;
      }
    }
  }
}

absl::Status checkShape(absl::Span<const int64_t> shape,
                        const TensorSharding& sharding) {
  if (static_cast<int64_t>(shape.size()) != sharding.rank()) {
    return invalid(strCat("sharding of rank ", sharding.rank(),
                          " for a tensor of rank ", shape.size()));
  }
  int64_t elements = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || (dim > 0 && elements > kMaxElements / dim)) {
      return invalid("the tensor shape is not static or too large");
    }
    elements *= dim;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DistributedTensor> distributeIota(
    absl::Span<const int64_t> shape, const TensorSharding& sharding,
    const Mesh& mesh, uint64_t seed, absl::Span<const int64_t> pad_multiples) {
  SK_RETURN_IF_ERROR(checkShape(shape, sharding));
  SK_RETURN_IF_ERROR(verifyTensorShardingWithMesh(sharding, mesh, shape));
  SK_ASSIGN_OR_RETURN(MeshDevices devices, MeshDevices::of(mesh));
  DistributedTensor tensor;
  tensor.padded_shape =
      sim_internal::paddedShape(shape, sharding, mesh, pad_multiples);
  SK_RETURN_IF_ERROR(checkShape(tensor.padded_shape, sharding));
  SK_ASSIGN_OR_RETURN(
      ShardLayout layout,
      ShardLayout::of(sharding, mesh, devices, shape, tensor.padded_shape));
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.sharding = sharding;
  tensor.mesh = mesh;
  tensor.shards.resize(devices.id_bound);
  for (int64_t id : devices.ids) {
    std::vector<int64_t>& shard = tensor.shards[id];
    shard.resize(layout.local_size);
    for (int64_t offset = 0; offset < layout.local_size; ++offset) {
      const int64_t global = layout.globalIndex(id, offset);
      shard[offset] = global < 0 ? kPadding : global;
    }
  }
  if (!sharding.unreduced_axes.empty()) {
    SplitMix rng(seed);
    std::vector<std::vector<int64_t>> groups =
        groupsAlong(sharding.unreduced_axes, mesh, devices);
    for (int64_t id : devices.ids) {
      if (groups[id].front() != id) continue;  // Split each group once.
      splitIntoPartials(groups[id], sharding.unreduced_kind, tensor.shards,
                        rng);
    }
  }
  return tensor;
}

absl::Status checkHoldsIota(const DistributedTensor& tensor,
                            const TensorSharding& sharding, const Mesh& mesh) {
  if (!sameShardingAxes(tensor.sharding, sharding) ||
      !tensor.mesh.sameDevicesAndAxes(mesh)) {
    return invalid(strCat("the tensor is sharded ", toString(tensor.sharding),
                          " on ", toString(tensor.mesh), ", not ",
                          toString(sharding), " on ", toString(mesh)));
  }
  SK_RETURN_IF_ERROR(checkShape(tensor.shape, sharding));
  SK_RETURN_IF_ERROR(
      verifyTensorShardingWithMesh(sharding, mesh, tensor.shape));
  SK_ASSIGN_OR_RETURN(MeshDevices devices, MeshDevices::of(mesh));
  SK_ASSIGN_OR_RETURN(ShardLayout layout,
                      ShardLayout::of(sharding, mesh, devices, tensor.shape,
                                      tensor.padded_shape));
  std::vector<std::vector<int64_t>> groups =
      groupsAlong(sharding.unreduced_axes, mesh, devices);
  const ReductionKind kind = sharding.unreduced_kind;
  for (int64_t id : devices.ids) {
    for (int64_t member : groups[id]) {
      if (member >= static_cast<int64_t>(tensor.shards.size()) ||
          static_cast<int64_t>(tensor.shards[member].size()) !=
              layout.local_size) {
        return invalid(strCat("device ", member, " holds a shard of size ",
                              "other than ", layout.local_size));
      }
    }
    for (int64_t offset = 0; offset < layout.local_size; ++offset) {
      const int64_t expected = layout.globalIndex(id, offset);
      if (expected < 0) continue;
      int64_t value = tensor.shards[groups[id].front()][offset];
      for (size_t m = 1; m < groups[id].size(); ++m) {
        const int64_t partial = tensor.shards[groups[id][m]][offset];
        value = kind == ReductionKind::kMax ? std::max(value, partial)
                : kind == ReductionKind::kMin
                    ? std::min(value, partial)
                    : static_cast<int64_t>(static_cast<uint64_t>(value) +
                                           static_cast<uint64_t>(partial));
      }
      if (value != expected) {
        return invalid(strCat("device ", id, " holds ", value,
                              " at local offset ", offset, " instead of ",
                              expected));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status simulateReshard(absl::Span<const int64_t> shape,
                             const TensorSharding& source,
                             absl::Span<const Collective> collectives,
                             const TensorSharding& target,
                             const MeshTable& meshes, uint64_t seed) {
  const Mesh* source_mesh = meshes.resolve(source);
  const Mesh* target_mesh = meshes.resolve(target);
  if (source_mesh == nullptr || target_mesh == nullptr) {
    return invalid("unknown mesh");
  }
  // One padding for the whole chain: a multiple of every shard count.
  std::vector<int64_t> multiples(shape.size(), 1);
  auto include = [&](const TensorSharding& sharding, const Mesh* mesh) {
    if (mesh == nullptr || sharding.rank() != source.rank()) return;
    std::vector<int64_t> counts = shardCounts(sharding, *mesh);
    for (size_t d = 0; d < multiples.size() && d < counts.size(); ++d) {
      if (counts[d] > 0) multiples[d] = std::lcm(multiples[d], counts[d]);
    }
  };
  include(source, source_mesh);
  include(target, target_mesh);
  for (const Collective& c : collectives) {
    include(c.out_sharding, meshes.resolve(c.out_sharding));
  }
  SK_ASSIGN_OR_RETURN(
      DistributedTensor tensor,
      distributeIota(shape, source, *source_mesh, seed, multiples));
  for (size_t i = 0; i < collectives.size(); ++i) {
    const Collective& c = collectives[i];
    const Mesh* out_mesh = &tensor.mesh;
    if (c.kind == CollectiveKind::kCollectivePermute) {
      out_mesh = meshes.resolve(c.out_sharding);
      if (out_mesh == nullptr) return invalid("unknown mesh");
    }
    absl::Status status =
        verifyCollective(c, tensor.sharding, tensor.mesh, *out_mesh);
    absl::StatusOr<DistributedTensor> next =
        status.ok() ? simulateCollective(tensor, c, *out_mesh)
                    : absl::StatusOr<DistributedTensor>(status);
    if (!next.ok()) {
      return invalid(strCat("collective #", i, " (", toString(c),
                            "): ", fromAbsl(next.status().message())));
    }
    tensor = *std::move(next);
  }
  if (isReplicatedEverywhere(target)) {
    if (!isReplicatedEverywhere(tensor.sharding)) {
      return invalid(strCat("the result is sharded ", toString(tensor.sharding),
                            ", not replicated"));
    }
    return checkHoldsIota(tensor, tensor.sharding, tensor.mesh);
  }
  return checkHoldsIota(tensor, target, *target_mesh);
}

}  // namespace shardkit
