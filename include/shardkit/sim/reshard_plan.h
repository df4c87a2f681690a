// Reshard planning: the sequence of sdy collectives that turns a tensor
// sharded one way into the same tensor sharded another way, as the
// reference's `-sdy-reshard-to-collectives` emits it (docs/export.md walks
// through the algorithm).
//
// The plan, in order:
//   1. all_reduce over the source's unreduced axes the target does not keep;
//   2. sharded_to_unreduced for target unreduced axes that end a source
//      dimension (they need no gathering);
//   3. all_gather of source axes that cannot coexist with target sub-axes;
//   4. the reference's loop, at most twice: all_slice, collective_permute,
//      all_to_alls (first those that land in place), all_gather;
//   5. replicated_to_unreduced for the remaining new unreduced axes.
// Every step's out sharding is checked against collectives.h's inference;
// should step 4 not finish (or a step not check), the plan instead gathers
// every axis, permutes the devices if the meshes differ, and slices the
// target's axes (`gathered_fully`), which is always correct.
#ifndef SHARDKIT_SIM_RESHARD_PLAN_H_
#define SHARDKIT_SIM_RESHARD_PLAN_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/sim/collectives.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct ReshardPlan {
  // The collectives, first to last; each one's operand is the previous one's
  // result. Empty when the reshard changes nothing and can be dropped.
  std::vector<Collective> collectives;
  // True when the fallback plan (gather all, slice all) was used.
  bool gathered_fully = false;
};

// True if a reshard to `sharding` needs no communication from a fully
// replicated value: no dimension is sharded and no axis is unreduced.
bool isReplicatedEverywhere(const TensorSharding& sharding);

// Plans the reshard of a tensor of static `shape` from `source` (on
// `source_mesh`) to `target` (on `target_mesh`).
//
// A target that is replicated everywhere is reached on the source's mesh
// (nothing to do if the source is replicated too). Otherwise the meshes must
// be the same symbol or have the same axes; when their device orders differ,
// a collective_permute moves to the target's mesh.
//
// Errors: Unimplemented when the shardings have different ranks or the meshes
// have different axes (the reshard cannot be lowered and stays);
// InvalidArgument for a bad unreduced transition (see
// verifyUnreducedTransition) or a shape of the wrong rank.
absl::StatusOr<ReshardPlan> planReshard(const TensorSharding& source,
                                        const Mesh& source_mesh,
                                        const TensorSharding& target,
                                        const Mesh& target_mesh,
                                        absl::Span<const int64_t> shape);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_SIM_RESHARD_PLAN_H_
