// Host simulation of sharded tensors and of the sdy collectives on them, to
// prove a chain of collectives exact: the global tensor's element at flat
// index i is i, every device holds its shard as a buffer, each collective
// moves or combines buffers the way the reference's docs/sdy_dialect.md defines
// it, and the final buffers are compared with the shards the target sharding
// demands.
//
// Layout: a dimension of size D is padded to a size P that is a multiple of
// its shard count k (by default the least, so that every device holds
// ceil(D / k) elements); shard j covers [j * P / k, (j + 1) * P / k) and
// positions past D are padding (kPadding). A chain of collectives is
// simulated with one P per dimension, a multiple of every shard count along
// the chain, so that resharding never moves padding. Which shard a
// device holds follows from its coordinate along the dimension's axes, and a
// collective's communication groups are the devices that differ only along
// its axes (both from sim/device_groups.h, which the interpreter's
// StableHLO collectives over mesh axes use too).
//
// The simulator runs sdy collectives, which are defined on shardings: a
// device's new block is the part of the global tensor its new sharding
// assigns it, taken from whichever member of its group holds it, so the
// order of a group does not matter here. StableHLO's collectives (the
// interpreter's, docs/interp.md) are defined on buffers: all_gather
// concatenates the group's operands in the group's order. The partitioner
// turns the first into the second; running its output is what checks that
// the order it chose puts every block where the sharding says.
//
// Unreduced axes: the devices that differ only along a tensor's unreduced
// axes hold partial values whose reduction (sum, max or min) is the element.
#ifndef SHARDKIT_SIM_SIMULATOR_H_
#define SHARDKIT_SIM_SIMULATOR_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/sim/collectives.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The value of a padded position of a shard.
inline constexpr int64_t kPadding = std::numeric_limits<int64_t>::min();

// A tensor distributed over the devices of a mesh.
struct DistributedTensor {
  std::vector<int64_t> shape;         // the global shape
  std::vector<int64_t> padded_shape;  // see the layout above
  TensorSharding sharding;
  Mesh mesh;
  // shards[id]: the local shard of the device with that id, row-major over
  // the local shape (empty for ids the mesh does not have).
  std::vector<std::vector<int64_t>> shards;
};

// The tensor of static `shape` whose element at flat index i is i,
// distributed by `sharding` on `mesh`, each dimension padded to a multiple of
// its shard count and of `pad_multiples` (if given). With unreduced axes,
// each group's partial values are a pseudo-random split (by `seed`) of the
// element.
absl::StatusOr<DistributedTensor> distributeIota(
    absl::Span<const int64_t> shape, const TensorSharding& sharding,
    const Mesh& mesh, uint64_t seed = 0,
    absl::Span<const int64_t> pad_multiples = {});

// Runs `collective` on `operand` and returns its result, distributed by the
// collective's out sharding (on `target_mesh` for a collective_permute, on
// the operand's mesh otherwise). The out sharding is not checked here (see
// verifyCollective); an element a device needs but cannot receive from the
// devices it communicates with is an error.
absl::StatusOr<DistributedTensor> simulateCollective(
    const DistributedTensor& operand, const Collective& collective,
    const Mesh& target_mesh);

// Checks that `tensor` holds the iota tensor the way `sharding` on `mesh`
// demands (with the tensor's padding): the same distribution (dimension and
// unreduced axes, device order), and every device's elements, reduced over
// the unreduced axes.
absl::Status checkHoldsIota(const DistributedTensor& tensor,
                            const TensorSharding& sharding, const Mesh& mesh);

// Distributes the iota tensor by `source`, runs `collectives` in order (each
// one's out sharding must be the inferred one), and checks the result
// against `target` (a target replicated everywhere may be reached on any
// mesh with the same devices). Meshes are resolved through `meshes`.
absl::Status simulateReshard(absl::Span<const int64_t> shape,
                             const TensorSharding& source,
                             absl::Span<const Collective> collectives,
                             const TensorSharding& target,
                             const MeshTable& meshes, uint64_t seed = 0);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_SIM_SIMULATOR_H_
