// -sdy-reshard-to-collectives: every `sdy.reshard` becomes the collectives
// shardkit::planReshard plans (sim/reshard_plan.h).
#ifndef SHARDKIT_PASSES_RESHARD_TO_COLLECTIVES_H_
#define SHARDKIT_PASSES_RESHARD_TO_COLLECTIVES_H_

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct ReshardToCollectivesOptions {
  // `keep-redundant-reshards`: leave a reshard whose operand already has the
  // same distribution (same mesh, dimension and unreduced axes).
  bool keep_redundant_reshards = false;
};

// Replaces every `sdy.reshard` by the planned collectives, applied to the
// reshard's input (looking through `sdy.propagation_barrier`s), each with its
// axes and out sharding; a reshard needing none is replaced by its input.
// An input without a sharding counts as fully open on the reshard's mesh.
// A reshard to or from a single device (a maximal mesh) stays: no collective
// does that; -sdy-resolve-single-device-sharding runs the op on the device.
// Fails (at the reshard's location) on a reshard that cannot be lowered: one
// between meshes with different axes (unless the target replicates the
// tensor everywhere) or shardings of different ranks, or one that is
// invalid, e.g. changes the reduction of unreduced axes.
absl::Status reshardToCollectives(Module& module,
                                  const ReshardToCollectivesOptions& options);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_RESHARD_TO_COLLECTIVES_H_
