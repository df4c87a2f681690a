// What a collective costs in communication, by the standard ring figures
// (docs/export.md, "Communication cost"). With n the product of the sizes of
// the collective's axes and s the bytes of one device's operand shard (its
// local shape, padded, times the element size), the bytes each device
// receives are:
//
//   all_gather               (n - 1) * s
//   all_slice                0
//   all_to_all               (n - 1) / n * s
//   collective_permute       s if some device's shard moves, else 0 (the
//                            largest over the devices)
//   all_reduce               2 (n - 1) / n * s
//   reduce_scatter           (n - 1) / n * s
//   sharded_to_unreduced     0 (local)
//   replicated_to_unreduced  0 (local)
#ifndef SHARDKIT_SIM_COMM_COST_H_
#define SHARDKIT_SIM_COMM_COST_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/sim/collectives.h"

namespace shardkit {

// The bytes one element of an MLIR element type takes (`f32` 4, `bf16` 2,
// `i1` 1, `complex<f32>` 8, `f8E4M3FN` 1, `index` 8), or nullopt.
std::optional<int64_t> elementByteSize(std::string_view element_type);

// The axes a collective communicates along, in the order it names them
// (empty for a collective_permute).
AxisRefVector collectiveAxes(const Collective& collective);

struct CommCost {
  // s: the bytes of one device's operand shard.
  int64_t local_bytes_in = 0;
  // n: the product of the sizes of the collective's axes.
  int64_t group_size = 1;
  // The bytes each device receives (the table above).
  double bytes_received_per_device = 0;
};

// The cost of `collective` applied to a tensor of static `shape` with
// elements of `element_bytes`, sharded by `operand` on `operand_mesh`;
// `target_mesh` is the out sharding's (a collective_permute may change the
// device order). InvalidArgument on a dynamic shape or ranks that differ.
absl::StatusOr<CommCost> communicationCost(const Collective& collective,
                                           const TensorSharding& operand,
                                           const Mesh& operand_mesh,
                                           const Mesh& target_mesh,
                                           absl::Span<const int64_t> shape,
                                           int64_t element_bytes);

}  // namespace shardkit

#endif  // SHARDKIT_SIM_COMM_COST_H_
