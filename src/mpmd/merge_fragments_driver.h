// Internal to the mpmd layer: the walk the fragment merging passes share.
// Each fragment of a function body, last first, is merged with the fragments
// that use it, one at a time, as long as a policy allows.
#ifndef SHARDKIT_SRC_MPMD_MERGE_FRAGMENTS_DRIVER_H_
#define SHARDKIT_SRC_MPMD_MERGE_FRAGMENTS_DRIVER_H_

#include <functional>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"

namespace shardkit::mpmd::mpmd_internal {

struct MergePolicy {
  // May `producer` be merged into `consumer`?
  std::function<bool(FragmentOp producer, FragmentOp consumer)> allow;
  // Merge with the first consumer (in program order) the policy allows
  // rather than only with the first consumer.
  bool any_consumer = false;
  // Merge with the next fragment on the same mesh, whether it uses the
  // producer or not, unless a transfer into that mesh comes first.
  bool sideways = false;
};

// Merges the fragments of `func`'s body under `policy`. Unused side-effect
// free fragments met on the way are erased. A merge happens where the
// consumer is, or where the producer is when something between them uses the
// producer and all of the consumer's operands are defined before it; it is
// skipped when neither is possible.
void mergeFragmentsInFunc(FuncOp func, const MergePolicy& policy);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_MERGE_FRAGMENTS_DRIVER_H_
