// Communication cost of a collective (see the header).
#include "shardkit/sim/comm_cost.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/sharding_math.h"
#include "shardkit/support/budgets.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// The bits of a plain element type (`f32`, `bf16`, `i8`, `ui16`, `si32`,
// `f8E4M3FN`), or nullopt.
std::optional<int64_t> elementBits(std::string_view type) {
  if (type == "index") return 64;
  if (type == "bf16") return 16;
  if (type == "tf32") return 32;
  size_t prefix = 0;
  if (type.starts_with("ui") || type.starts_with("si")) {
    prefix = 2;
  } else if (type.starts_with("i") || type.starts_with("f")) {
    prefix = 1;
  } else {
    return std::nullopt;
  }
  size_t end = prefix;
  while (end < type.size() &&
         std::isdigit(static_cast<unsigned char>(type[end]))) {
    ++end;
  }
  if (end == prefix) return std::nullopt;
  // Anything after the width names a float format (`f8E4M3FN`).
  if (end != type.size() && type[0] != 'f') return std::nullopt;
  int64_t bits = 0;
  for (size_t i = prefix; i < end; ++i) bits = bits * 10 + (type[i] - '0');
  return bits;
}

// Whether some device holds another shard after the permute than before.
absl::StatusOr<bool> shardsMove(const TensorSharding& operand,
                                const Mesh& operand_mesh,
                                const TensorSharding& result,
                                const Mesh& target_mesh) {
  // The same sharding of the same devices moves nothing, however many.
  if (operand == result && operand_mesh.sameDeviceOrder(target_mesh) &&
      operand_mesh.axes == target_mesh.axes) {
    return false;
  }
  int64_t devices = std::max(operand_mesh.totalSize(), target_mesh.totalSize());
  // Every device's shard is compared before and after: bounded, since a
  // mesh of 2^28 devices would take gigabytes.
  if (devices > kDeviceBudget) {
    return absl::ResourceExhaustedError(
        toAbsl(strCat("the cost of a collective_permute over ", devices,
                      " devices exceeds the budget of ", kDeviceBudget,
                      " devices compared one by one")));
  }
  absl::flat_hash_map<int64_t, std::vector<int64_t>> before;
  for (DeviceShard& d : deviceShards(operand, operand_mesh)) {
    before[d.device_id] = std::move(d.shard_index);
  }
  for (const DeviceShard& d : deviceShards(result, target_mesh)) {
    auto it = before.find(d.device_id);
    if (it == before.end() || it->second != d.shard_index) return true;
  }
  return false;
}

absl::Status overflow(std::string_view what) {
  return absl::OutOfRangeError(
      toAbsl(strCat("the ", what, " of the collective overflows int64")));
}

}  // namespace

std::optional<int64_t> elementByteSize(std::string_view type) {
  if (type.starts_with("complex<") && type.ends_with(">")) {
    std::optional<int64_t> part =
        elementByteSize(type.substr(8, type.size() - 9));
    if (!part) return std::nullopt;
    return 2 * *part;
  }
  std::optional<int64_t> bits = elementBits(type);
  if (!bits || *bits <= 0) return std::nullopt;
  return (*bits + 7) / 8;
}

AxisRefVector collectiveAxes(const Collective& c) {
  AxisRefVector axes = c.axes.items;
  for (const AxisRefList& list : c.axes_per_dim) {
    axes.insert(axes.end(), list.begin(), list.end());
  }
  for (const AllToAllParam& param : c.params) {
    axes.insert(axes.end(), param.axes.begin(), param.axes.end());
  }
  return axes;
}

absl::StatusOr<CommCost> communicationCost(const Collective& c,
                                           const TensorSharding& operand,
                                           const Mesh& operand_mesh,
                                           const Mesh& target_mesh,
                                           absl::Span<const int64_t> shape,
                                           int64_t element_bytes) {
  if (operand.rank() != static_cast<int64_t>(shape.size())) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("the operand sharding has rank ", operand.rank(),
                      " but the tensor has rank ", shape.size())));
  }
  CommCost cost;
  cost.local_bytes_in = element_bytes;
  for (int64_t dim :
       localShape(operand, operand_mesh, TensorShapeView(shape))) {
    if (dim == kDynamicSize) {
      return absl::InvalidArgumentError(
          "the cost of a collective needs a static shape");
    }
    if (!checkedMul(cost.local_bytes_in, dim, cost.local_bytes_in)) {
      return overflow("local bytes");
    }
  }
  for (const AxisRef& axis : collectiveAxes(c)) {
    if (!checkedMul(cost.group_size, axis.size(operand_mesh),
                    cost.group_size)) {
      return overflow("device group size");
    }
  }
  double s = static_cast<double>(cost.local_bytes_in);
  double n = static_cast<double>(cost.group_size);
  switch (c.kind) {
    case CollectiveKind::kAllGather:
      cost.bytes_received_per_device = (n - 1) * s;
      break;
    case CollectiveKind::kAllToAll:
    case CollectiveKind::kReduceScatter:
      cost.bytes_received_per_device = (n - 1) / n * s;
      break;
    case CollectiveKind::kAllReduce:
      cost.bytes_received_per_device = 2 * (n - 1) / n * s;
      break;
    case CollectiveKind::kCollectivePermute: {
      absl::StatusOr<bool> moves =
          shardsMove(operand, operand_mesh, c.out_sharding, target_mesh);
      if (!moves.ok()) return moves.status();
      cost.bytes_received_per_device = *moves ? s : 0;
      break;
    }
    case CollectiveKind::kAllSlice:
    case CollectiveKind::kShardedToUnreduced:
    case CollectiveKind::kReplicatedToUnreduced:
      break;
  }
  return cost;
}

}  // namespace shardkit
