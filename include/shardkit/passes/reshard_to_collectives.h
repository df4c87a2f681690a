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
// A reshard between shardings of different ranks or meshes with different
// axes cannot be lowered and stays. Fails (at the reshard's location) on a
// reshard that is invalid, e.g. changes the reduction of unreduced axes.
absl::Status reshardToCollectives(Module& module,
                                  const ReshardToCollectivesOptions& options);

// Registers the pass (called from pass_list.cc).
void registerReshardToCollectivesPass();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_RESHARD_TO_COLLECTIVES_H_
